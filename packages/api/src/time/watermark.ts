/**
 * Event time in Weir, as in Flink: a timestamp is milliseconds since the epoch, a watermark
 * W says no record with a timestamp <= W will come any more. Timestamps are JS numbers;
 * Flink's Long.MIN_VALUE ("no watermark yet") is -Infinity and Long.MAX_VALUE (the final
 * watermark at the end of input, which fires every event-time timer) is +Infinity.
 */
export class Watermark {
  /** The watermark a bounded input ends with: every event-time timer and window fires. */
  static readonly MAX_WATERMARK = new Watermark(Number.POSITIVE_INFINITY);
  /** Before the first watermark: nothing has fired. */
  static readonly UNINITIALIZED = new Watermark(Number.NEGATIVE_INFINITY);

  constructor(readonly timestamp: number) {}

  /** The watermark's time (ms); -Infinity and +Infinity stand for Flink's Long.MIN_VALUE and Long.MAX_VALUE. */
  getTimestamp(): number {
    return this.timestamp;
  }

  /** `Watermark @ <timestamp>`, as Flink prints it. */
  toString(): string {
    return `Watermark @ ${this.timestamp}`;
  }
}

/** What a watermark generator emits to (Flink's WatermarkOutput). */
export interface WatermarkOutput {
  /** A watermark lower than or equal to one emitted before is ignored: watermarks only go forward. */
  emitWatermark(watermark: Watermark): void;
  /** This output has no records for now: downstream tasks stop waiting for its watermark (Flink's idleness). */
  markIdle(): void;
  /** Records flow again; also implied by the next record or watermark. */
  markActive(): void;
}

/**
 * Generates watermarks from the records a source reader or `assignTimestampsAndWatermarks`
 * sees (Flink's WatermarkGenerator): `onEvent` per record, `onPeriodicEmit` every
 * `pipeline.auto-watermark-interval` (200 ms by default, `env.getConfig().setAutoWatermarkInterval`).
 */
export interface WatermarkGenerator<T> {
  /** Sees one record and its timestamp; may emit a watermark (punctuated watermarks). */
  onEvent(event: T, eventTimestamp: number, output: WatermarkOutput): void;
  /** Called every auto-watermark interval; emits the watermark periodic generators hold. */
  onPeriodicEmit(output: WatermarkOutput): void;
}

/** Extracts a record's event-time timestamp (ms). `recordTimestamp` is the one the source gave it, undefined when none. */
export interface TimestampAssigner<T> {
  /** The element's event time (ms). */
  extractTimestamp(element: T, recordTimestamp: number | undefined): number;
}

/** A clock that only counts time while the task runs; idleness detection measures with it. */
export interface RelativeClock {
  /** Milliseconds on this clock; only differences between two readings mean anything. */
  relativeTimeMillis(): number;
}

/** What a generator is created with (Flink's WatermarkGeneratorSupplier.Context). */
export interface WatermarkGeneratorSupplierContext {
  /** The task's processing-time clock: the injected clock, so tests drive idleness. */
  getInputActivityClock(): RelativeClock;
}

/** Makes a WatermarkGenerator for one source split or stream instance (Flink's WatermarkGeneratorSupplier). */
export type WatermarkGeneratorSupplier<T> = (context: WatermarkGeneratorSupplierContext) => WatermarkGenerator<T>;

/** Where processing time stands for a timestamp assigner's supplier; assigners rarely need it. */
export type TimestampAssignerSupplier<T> = (context: WatermarkGeneratorSupplierContext) => TimestampAssigner<T>;
