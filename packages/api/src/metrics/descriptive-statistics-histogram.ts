import type { Histogram, HistogramStatistics } from './types.ts';

/**
 * Flink's DescriptiveStatisticsHistogram: keeps the last `windowSize` values (a sliding window,
 * not a random reservoir) and computes its statistics over them when read. `update` writes
 * one slot of a ring; sorting happens only in `getStatistics`, when metrics are sampled.
 */
export class DescriptiveStatisticsHistogram implements Histogram {
  readonly #values: Float64Array;
  #count = 0;

  constructor(readonly windowSize: number) {
    if (!Number.isInteger(windowSize) || windowSize < 1) throw new RangeError(`a histogram's window size must be a positive integer, not ${windowSize}`);
    this.#values = new Float64Array(windowSize);
  }

  update(value: number): void {
    this.#values[this.#count % this.windowSize] = value;
    this.#count++;
  }

  getCount(): number {
    return this.#count;
  }

  getStatistics(): HistogramStatistics {
    return new WindowStatistics(this.#values.slice(0, Math.min(this.#count, this.windowSize)).sort());
  }
}

/** Statistics of sorted values; all 0 when there are none. */
class WindowStatistics implements HistogramStatistics {
  constructor(private readonly sorted: Float64Array) {}

  /** The value at `quantile`, interpolated between the two nearest ranks (Apache Commons Math's default estimation, as Flink's). */
  getQuantile(quantile: number): number {
    const n = this.sorted.length;
    if (n === 0) return 0;
    const position = Math.min(Math.max(quantile * (n + 1), 1), n);
    const lower = Math.floor(position);
    const fraction = position - lower;
    const below = this.sorted[lower - 1]!;
    return lower >= n ? below : below + fraction * (this.sorted[lower]! - below);
  }

  getValues(): readonly number[] {
    return [...this.sorted];
  }

  size(): number {
    return this.sorted.length;
  }

  getMean(): number {
    const n = this.sorted.length;
    return n === 0 ? 0 : this.sorted.reduce((sum, v) => sum + v, 0) / n;
  }

  getStdDev(): number {
    const n = this.sorted.length;
    if (n < 2) return 0;
    const mean = this.getMean();
    return Math.sqrt(this.sorted.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1));
  }

  getMax(): number {
    return this.sorted.length === 0 ? 0 : this.sorted[this.sorted.length - 1]!;
  }

  getMin(): number {
    return this.sorted.length === 0 ? 0 : this.sorted[0]!;
  }
}
