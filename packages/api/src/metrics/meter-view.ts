import type { Counter, Meter } from './types.ts';
import { SimpleCounter } from './simple-counter.ts';

/** Flink's MeterView default time span, in seconds. */
const DEFAULT_TIME_SPAN_SECONDS = 60;

/**
 * Flink's MeterView: a meter over a counter, whose rate is the events per second over the last
 * `timeSpanSeconds`. `markEvent` only adds to the counter; the runtime calls `update(now)` each
 * time it samples metrics (never per record), and the rate is the counter's rise between the
 * oldest sample still inside the time span and now. Before two samples the rate is 0.
 */
export class MeterView implements Meter {
  readonly counter: Counter;
  readonly timeSpanSeconds: number;
  /** Samples (time ms, count) not older than the time span, oldest first. */
  readonly #samples: { atMs: number; count: number }[] = [];
  #rate = 0;

  constructor(timeSpanSeconds?: number);
  constructor(counter: Counter, timeSpanSeconds?: number);
  constructor(counterOrSpan?: Counter | number, timeSpanSeconds?: number) {
    this.counter = typeof counterOrSpan === 'object' ? counterOrSpan : new SimpleCounter();
    const span = typeof counterOrSpan === 'number' ? counterOrSpan : (timeSpanSeconds ?? DEFAULT_TIME_SPAN_SECONDS);
    if (!(span > 0)) throw new RangeError(`a MeterView's time span must be positive seconds, not ${span}`);
    this.timeSpanSeconds = span;
  }

  markEvent(n = 1): void {
    this.counter.inc(n);
  }

  getCount(): number {
    return this.counter.getCount();
  }

  getRate(): number {
    return this.#rate;
  }

  /** Takes a sample at `nowMs` and recomputes the rate over the time span (Flink's View.update). */
  update(nowMs: number): void {
    const samples = this.#samples;
    const count = this.counter.getCount();
    samples.push({ atMs: nowMs, count });
    const from = nowMs - this.timeSpanSeconds * 1_000;
    // Keep the newest sample at or before the span's start: the rate covers the whole span once it can.
    while (samples.length > 2 && samples[1]!.atMs <= from) samples.shift();
    const oldest = samples[0]!;
    const seconds = (nowMs - oldest.atMs) / 1_000;
    this.#rate = seconds > 0 ? (count - oldest.count) / seconds : 0;
  }
}
