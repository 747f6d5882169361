import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { AscendingTimestampsWatermarks, BoundedOutOfOrdernessWatermarks, NoWatermarksGenerator, WatermarksWithIdleness } from './generators.ts';
import type {
  TimestampAssigner,
  TimestampAssignerSupplier,
  WatermarkGenerator,
  WatermarkGeneratorSupplier,
  WatermarkGeneratorSupplierContext,
} from './watermark.ts';

/** The timestamp the source gave the record (Flink's RecordTimestampAssigner); none stays none. */
const recordTimestamp: TimestampAssigner<unknown> = { extractTimestamp: (_element, timestamp) => timestamp as number };

interface StrategyParts<T> {
  readonly generator: WatermarkGeneratorSupplier<T>;
  readonly assigner: TimestampAssignerSupplier<T> | undefined;
  readonly idleTimeoutMs: number | undefined;
  /** false only for noWatermarks(): the runtime need not run periodic emission. */
  readonly emitsWatermarks: boolean;
}

/**
 * How records get event-time timestamps and how watermarks follow them (Flink's
 * WatermarkStrategy), given to `env.fromSource(source, strategy, name)` (per source reader,
 * and per split for sources with splits) or `stream.assignTimestampsAndWatermarks(strategy)`.
 * Immutable: every `with...` returns a new strategy.
 *
 * ```ts
 * WatermarkStrategy.forBoundedOutOfOrderness<Event>(5_000)
 *   .withTimestampAssigner((event) => event.time)
 *   .withIdleness(60_000)
 * ```
 */
export class WatermarkStrategy<T> {
  /** Phantom field carrying T, so a strategy matches its stream's record type. */
  declare readonly __type?: T;
  readonly #parts: StrategyParts<T>;

  private constructor(parts: StrategyParts<T>) {
    this.#parts = parts;
  }

  /** No watermarks: processing time only (bounded inputs still end with the final watermark). */
  static noWatermarks<T>(): WatermarkStrategy<T> {
    return new WatermarkStrategy<T>({ generator: () => new NoWatermarksGenerator<T>(), assigner: undefined, idleTimeoutMs: undefined, emitsWatermarks: false });
  }

  /** Timestamps only go up: the watermark is the highest timestamp seen, minus 1. */
  static forMonotonousTimestamps<T>(): WatermarkStrategy<T> {
    return WatermarkStrategy.forGenerator<T>(() => new AscendingTimestampsWatermarks<T>());
  }

  /** Records come at most `maxOutOfOrdernessMs` after later ones: the watermark trails the highest timestamp by that bound. */
  static forBoundedOutOfOrderness<T>(maxOutOfOrdernessMs: number): WatermarkStrategy<T> {
    requireDuration(maxOutOfOrdernessMs, 'forBoundedOutOfOrderness()', 0);
    return WatermarkStrategy.forGenerator<T>(() => new BoundedOutOfOrdernessWatermarks<T>(maxOutOfOrdernessMs));
  }

  /** A generator of your own, made per source reader (and per split) or per assigner subtask. */
  static forGenerator<T>(supplier: WatermarkGeneratorSupplier<T>): WatermarkStrategy<T> {
    if (typeof supplier !== 'function') {
      throw new WeirError(
        ApiErrorCode.INVALID_FUNCTION,
        `WatermarkStrategy.forGenerator() takes a function (context) => WatermarkGenerator, got ${String(supplier)}`,
      );
    }
    return new WatermarkStrategy<T>({ generator: supplier, assigner: undefined, idleTimeoutMs: undefined, emitsWatermarks: true });
  }

  /** Where a record's timestamp comes from; without one, the timestamp its source gave it. */
  withTimestampAssigner(assigner: TimestampAssigner<T> | ((element: T, recordTimestamp: number | undefined) => number)): WatermarkStrategy<T> {
    let fn: TimestampAssigner<T>;
    if (typeof assigner === 'function') fn = { extractTimestamp: assigner };
    else if (assigner !== null && typeof assigner === 'object' && typeof assigner.extractTimestamp === 'function') fn = assigner;
    else {
      throw new WeirError(
        ApiErrorCode.INVALID_FUNCTION,
        `withTimestampAssigner() takes a function (element, recordTimestamp) => timestamp or an object with extractTimestamp(), got ${String(assigner)}`,
      );
    }
    return new WatermarkStrategy<T>({ ...this.#parts, assigner: () => fn });
  }

  /** Marks the input idle after `idleTimeoutMs` of processing time without records, so it does not hold back the watermark downstream. */
  withIdleness(idleTimeoutMs: number): WatermarkStrategy<T> {
    requireDuration(idleTimeoutMs, 'withIdleness()', 1);
    return new WatermarkStrategy<T>({ ...this.#parts, idleTimeoutMs });
  }

  /** A new generator for one source split or stream instance, wrapped for idleness when `withIdleness` was set. */
  createWatermarkGenerator(context: WatermarkGeneratorSupplierContext): WatermarkGenerator<T> {
    const generator = this.#parts.generator(context);
    const idle = this.#parts.idleTimeoutMs;
    return idle === undefined ? generator : new WatermarksWithIdleness(generator, idle, context.getInputActivityClock());
  }

  /** The assigner `withTimestampAssigner` set, else one that keeps the source's record timestamp. */
  createTimestampAssigner(context: WatermarkGeneratorSupplierContext): TimestampAssigner<T> {
    return this.#parts.assigner?.(context) ?? (recordTimestamp as TimestampAssigner<T>);
  }

  /** False for noWatermarks() without idleness: nothing to emit periodically. */
  get emitsWatermarks(): boolean {
    return this.#parts.emitsWatermarks || this.#parts.idleTimeoutMs !== undefined;
  }

  /** True once withTimestampAssigner was called. */
  get assignsTimestamps(): boolean {
    return this.#parts.assigner !== undefined;
  }
}

function requireDuration(ms: number, call: string, min: number): void {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < min || !Number.isInteger(ms)) {
    throw new WeirError(ApiErrorCode.INVALID_WATERMARK_STRATEGY, `${call} takes a whole number of milliseconds >= ${min}, got ${String(ms)}`);
  }
}

/** Whether `value` is a WatermarkStrategy. */
export function isWatermarkStrategy(value: unknown): value is WatermarkStrategy<unknown> {
  return value instanceof WatermarkStrategy;
}
