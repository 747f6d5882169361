/**
 * Flink's user metrics (org.apache.flink.metrics): what a function registers on
 * `getRuntimeContext().getMetricGroup()`. The runtime reads every registered metric when the
 * TaskManager samples its tasks, never on the record path, so `inc()` is all a record pays.
 */

/** A count that goes up and down (Flink's Counter). */
export interface Counter {
  inc(n?: number): void;
  dec(n?: number): void;
  getCount(): number;
}

/** A value read when metrics are sampled (Flink's Gauge). Numbers and booleans (1 / 0) are reported; other values are not. */
export interface Gauge<T> {
  getValue(): T;
}

/** Events per second (Flink's Meter). */
export interface Meter {
  markEvent(n?: number): void;
  /** Events per second over the meter's time span. */
  getRate(): number;
  getCount(): number;
}

/** Statistics over the values a histogram kept (Flink's HistogramStatistics). */
export interface HistogramStatistics {
  /** `quantile` in 0..1. */
  getQuantile(quantile: number): number;
  getValues(): readonly number[];
  size(): number;
  getMean(): number;
  getStdDev(): number;
  getMax(): number;
  getMin(): number;
}

/** A distribution of values (Flink's Histogram). */
export interface Histogram {
  update(value: number): void;
  /** Values seen since the histogram was created. */
  getCount(): number;
  getStatistics(): HistogramStatistics;
}

/**
 * A scope metrics are registered in (Flink's MetricGroup). A function's group is its operator's:
 * job, task, subtask and operator are its variables. `addGroup(name)` adds a scope component;
 * `addGroup(key, value)` a key and a value, which Prometheus gets as the label `key="value"`.
 * Registering a name twice in one group gives the first metric back (Flink logs and ignores
 * the second).
 */
export interface MetricGroup {
  counter(name: string): Counter;
  counter<C extends Counter>(name: string, counter: C): C;
  gauge<T>(name: string, gauge: Gauge<T> | (() => T)): Gauge<T>;
  meter<M extends Meter>(name: string, meter: M): M;
  histogram<H extends Histogram>(name: string, histogram: H): H;
  addGroup(name: string): MetricGroup;
  addGroup(key: string, value: string): MetricGroup;
  /** The scope, outermost first: `['taskmanager', '<job name>', '<task name>', '<subtask index>', '<operator name>', ...groups]` (a key-value group gives its key and its value). */
  getScopeComponents(): readonly string[];
  /** The variables of the scope: `<job_id>`, `<task_name>`, ..., and one per key-value group. */
  getAllVariables(): Readonly<Record<string, string>>;
  /** The fully qualified name of `name` in this group: the scope components and the name joined by '.'. */
  getMetricIdentifier(name: string): string;
}
