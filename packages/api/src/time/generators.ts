import { Watermark, type RelativeClock, type WatermarkGenerator, type WatermarkOutput } from './watermark.ts';

/**
 * Flink's BoundedOutOfOrderness: records may come up to `outOfOrdernessMs` late, so the
 * watermark is the highest timestamp seen minus that bound minus 1 (a record with exactly
 * the bound's lateness is still on time). Emitted periodically, never per record.
 */
export class BoundedOutOfOrdernessWatermarks<T> implements WatermarkGenerator<T> {
  #maxTimestamp = Number.NEGATIVE_INFINITY;

  constructor(private readonly outOfOrdernessMs: number) {}

  onEvent(_event: T, eventTimestamp: number, _output: WatermarkOutput): void {
    if (eventTimestamp > this.#maxTimestamp) this.#maxTimestamp = eventTimestamp;
  }

  onPeriodicEmit(output: WatermarkOutput): void {
    // Nothing seen yet: -Infinity stays -Infinity, which the output ignores.
    output.emitWatermark(new Watermark(this.#maxTimestamp - this.outOfOrdernessMs - 1));
  }
}

/** Timestamps never go down (Flink's AscendingTimestampsWatermarks): a bound of 0. */
export class AscendingTimestampsWatermarks<T> extends BoundedOutOfOrdernessWatermarks<T> {
  constructor() {
    super(0);
  }
}

/** Emits no watermarks: processing time only. The final watermark at the end of input still comes. */
export class NoWatermarksGenerator<T> implements WatermarkGenerator<T> {
  onEvent(): void {}
  onPeriodicEmit(): void {}
}

/**
 * Wraps a generator with idleness detection (Flink's WatermarksWithIdleness): when no record
 * came for `idleTimeoutMs` of processing time, the output is marked idle, so downstream
 * tasks take their watermark from their other inputs; the next record makes it active again.
 */
export class WatermarksWithIdleness<T> implements WatermarkGenerator<T> {
  readonly #timer: IdlenessTimer;

  constructor(
    private readonly watermarks: WatermarkGenerator<T>,
    idleTimeoutMs: number,
    clock: RelativeClock,
  ) {
    this.#timer = new IdlenessTimer(clock, idleTimeoutMs);
  }

  onEvent(event: T, eventTimestamp: number, output: WatermarkOutput): void {
    this.watermarks.onEvent(event, eventTimestamp, output);
    this.#timer.activity();
  }

  onPeriodicEmit(output: WatermarkOutput): void {
    if (this.#timer.checkIfIdle()) output.markIdle();
    else this.watermarks.onPeriodicEmit(output);
  }
}

/** Counts processing time since the last activity, starting at the first check after it. */
class IdlenessTimer {
  #counter = 0;
  #lastCounter = 0;
  /** When the first check saw no new activity; undefined while active. */
  #startOfInactivity: number | undefined;

  constructor(
    private readonly clock: RelativeClock,
    private readonly timeoutMs: number,
  ) {}

  activity(): void {
    this.#counter++;
  }

  checkIfIdle(): boolean {
    if (this.#counter !== this.#lastCounter) {
      this.#lastCounter = this.#counter;
      this.#startOfInactivity = undefined;
      return false;
    }
    const now = this.clock.relativeTimeMillis();
    if (this.#startOfInactivity === undefined) {
      this.#startOfInactivity = now;
      return false;
    }
    return now - this.#startOfInactivity >= this.timeoutMs;
  }
}
