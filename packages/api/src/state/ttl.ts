import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';

/** When a value's time to live starts again (Flink's StateTtlConfig.UpdateType). */
export const UpdateType = {
  /** On creation and on every write. */
  OnCreateAndWrite: 'OnCreateAndWrite',
  /** On reads too. */
  OnReadAndWrite: 'OnReadAndWrite',
} as const;
export type UpdateType = (typeof UpdateType)[keyof typeof UpdateType];

/** Whether an expired value that was not cleaned up yet may still be read (Flink's StateTtlConfig.StateVisibility). */
export const StateVisibility = {
  NeverReturnExpired: 'NeverReturnExpired',
  ReturnExpiredIfNotCleanedUp: 'ReturnExpiredIfNotCleanedUp',
} as const;
export type StateVisibility = (typeof StateVisibility)[keyof typeof StateVisibility];

/**
 * Time to live of keyed state (Flink's StateTtlConfig), in processing time: a value expires
 * `ttlMs` after it was last written (or read, with OnReadAndWrite). Expired values are
 * removed when read and, with `cleanupFullSnapshot()`, left out of every snapshot written in
 * the canonical format (heap checkpoints and all savepoints). A list keeps a time per element,
 * a map per entry. Turning TTL on or off for a state across a restore is not supported.
 *
 * ```ts
 * const ttl = StateTtlConfig.newBuilder(Time.minutes(10)).setUpdateType(UpdateType.OnCreateAndWrite)
 *   .setStateVisibility(StateVisibility.NeverReturnExpired).cleanupFullSnapshot().build();
 * descriptor.enableTimeToLive(ttl);
 * ```
 */
export class StateTtlConfig {
  static readonly UpdateType = UpdateType;
  static readonly StateVisibility = StateVisibility;

  private constructor(
    readonly ttlMs: number,
    readonly updateType: UpdateType,
    readonly stateVisibility: StateVisibility,
    readonly cleanupInFullSnapshot: boolean,
  ) {}

  static newBuilder(ttlMs: number): StateTtlConfigBuilder {
    return new StateTtlConfigBuilder(ttlMs);
  }

  /** @internal Used by the builder. */
  static create(ttlMs: number, updateType: UpdateType, visibility: StateVisibility, cleanupFullSnapshot: boolean): StateTtlConfig {
    return new StateTtlConfig(ttlMs, updateType, visibility, cleanupFullSnapshot);
  }

  getTtl(): number {
    return this.ttlMs;
  }

  getUpdateType(): UpdateType {
    return this.updateType;
  }

  getStateVisibility(): StateVisibility {
    return this.stateVisibility;
  }
}

export class StateTtlConfigBuilder {
  #updateType: UpdateType = UpdateType.OnCreateAndWrite;
  #visibility: StateVisibility = StateVisibility.NeverReturnExpired;
  #cleanupFullSnapshot = false;

  constructor(private readonly ttlMs: number) {
    if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 1) {
      throw new WeirError(ApiErrorCode.INVALID_STATE_TTL, `StateTtlConfig.newBuilder() takes a time to live of whole milliseconds >= 1, got ${String(ttlMs)}`);
    }
  }

  setUpdateType(updateType: UpdateType): this {
    if (!Object.values(UpdateType).includes(updateType)) {
      throw new WeirError(ApiErrorCode.INVALID_STATE_TTL, `setUpdateType() takes UpdateType.OnCreateAndWrite or UpdateType.OnReadAndWrite, got ${String(updateType)}`);
    }
    this.#updateType = updateType;
    return this;
  }

  updateTtlOnCreateAndWrite(): this {
    return this.setUpdateType(UpdateType.OnCreateAndWrite);
  }

  updateTtlOnReadAndWrite(): this {
    return this.setUpdateType(UpdateType.OnReadAndWrite);
  }

  setStateVisibility(visibility: StateVisibility): this {
    if (!Object.values(StateVisibility).includes(visibility)) {
      throw new WeirError(
        ApiErrorCode.INVALID_STATE_TTL,
        `setStateVisibility() takes StateVisibility.NeverReturnExpired or StateVisibility.ReturnExpiredIfNotCleanedUp, got ${String(visibility)}`,
      );
    }
    this.#visibility = visibility;
    return this;
  }

  neverReturnExpired(): this {
    return this.setStateVisibility(StateVisibility.NeverReturnExpired);
  }

  returnExpiredIfNotCleanedUp(): this {
    return this.setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp);
  }

  /** Leaves expired values out of snapshots in the canonical format (heap checkpoints, savepoints). */
  cleanupFullSnapshot(): this {
    this.#cleanupFullSnapshot = true;
    return this;
  }

  build(): StateTtlConfig {
    return StateTtlConfig.create(this.ttlMs, this.#updateType, this.#visibility, this.#cleanupFullSnapshot);
  }
}
