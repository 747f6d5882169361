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

  /** A builder for a time to live of `ttlMs` milliseconds (Flink takes a Time or Duration; `Time.minutes(10)` gives milliseconds here). */
  static newBuilder(ttlMs: number): StateTtlConfigBuilder {
    return new StateTtlConfigBuilder(ttlMs);
  }

  /** @internal Used by the builder. */
  static create(ttlMs: number, updateType: UpdateType, visibility: StateVisibility, cleanupFullSnapshot: boolean): StateTtlConfig {
    return new StateTtlConfig(ttlMs, updateType, visibility, cleanupFullSnapshot);
  }

  /** The time to live in milliseconds. */
  getTtl(): number {
    return this.ttlMs;
  }

  /** When a value's time to live starts again. */
  getUpdateType(): UpdateType {
    return this.updateType;
  }

  /** Whether an expired value not yet cleaned up is returned. */
  getStateVisibility(): StateVisibility {
    return this.stateVisibility;
  }
}

/** Builds a StateTtlConfig (Flink's StateTtlConfig.Builder); validates each setting as it is set. */
export class StateTtlConfigBuilder {
  #updateType: UpdateType = UpdateType.OnCreateAndWrite;
  #visibility: StateVisibility = StateVisibility.NeverReturnExpired;
  #cleanupFullSnapshot = false;

  constructor(private readonly ttlMs: number) {
    if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 1) {
      throw new WeirError(ApiErrorCode.INVALID_STATE_TTL, `StateTtlConfig.newBuilder() takes a time to live of whole milliseconds >= 1, got ${String(ttlMs)}`);
    }
  }

  /** When the time to live restarts: on create and write (default) or also on read. */
  setUpdateType(updateType: UpdateType): this {
    if (!Object.values(UpdateType).includes(updateType)) {
      throw new WeirError(ApiErrorCode.INVALID_STATE_TTL, `setUpdateType() takes UpdateType.OnCreateAndWrite or UpdateType.OnReadAndWrite, got ${String(updateType)}`);
    }
    this.#updateType = updateType;
    return this;
  }

  /** `setUpdateType(UpdateType.OnCreateAndWrite)`. */
  updateTtlOnCreateAndWrite(): this {
    return this.setUpdateType(UpdateType.OnCreateAndWrite);
  }

  /** `setUpdateType(UpdateType.OnReadAndWrite)`. */
  updateTtlOnReadAndWrite(): this {
    return this.setUpdateType(UpdateType.OnReadAndWrite);
  }

  /** Whether reads may return an expired value that was not cleaned up yet (default: never). */
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

  /** `setStateVisibility(StateVisibility.NeverReturnExpired)`. */
  neverReturnExpired(): this {
    return this.setStateVisibility(StateVisibility.NeverReturnExpired);
  }

  /** `setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp)`. */
  returnExpiredIfNotCleanedUp(): this {
    return this.setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp);
  }

  /** Leaves expired values out of snapshots in the canonical format (heap checkpoints, savepoints). */
  cleanupFullSnapshot(): this {
    this.#cleanupFullSnapshot = true;
    return this;
  }

  /** The configuration, for `StateDescriptor.enableTimeToLive`. */
  build(): StateTtlConfig {
    return StateTtlConfig.create(this.ttlMs, this.#updateType, this.#visibility, this.#cleanupFullSnapshot);
  }
}
