/**
 * Flink's user metrics (org.apache.flink.metrics): what a function registers on
 * `getRuntimeContext().getMetricGroup()`. The runtime reads every registered metric when the
 * TaskManager samples its tasks, never on the record path, so `inc()` is all a record pays.
 */

/** A count that goes up and down (Flink's Counter). */
export interface Counter {
  /** Adds `n` (default 1). */
  inc(n?: number): void;
  /** Subtracts `n` (default 1). */
  dec(n?: number): void;
  /** The current count. */
  getCount(): number;
}

/** A value read when metrics are sampled (Flink's Gauge). Numbers and booleans (1 / 0) are reported; other values are not. */
export interface Gauge<T> {
  /** The value to report now; called when metrics are sampled, not per record. */
  getValue(): T;
}

/** Events per second (Flink's Meter). */
export interface Meter {
  /** Records `n` events (default 1) now. */
  markEvent(n?: number): void;
  /** Events per second over the meter's time span. */
  getRate(): number;
  /** Events marked since the meter was created. */
  getCount(): number;
}

/** Statistics over the values a histogram kept (Flink's HistogramStatistics). */
export interface HistogramStatistics {
  /** `quantile` in 0..1. */
  getQuantile(quantile: number): number;
  /** The values kept, in ascending order. */
  getValues(): readonly number[];
  /** How many values are kept. */
  size(): number;
  /** The mean of the values kept. */
  getMean(): number;
  /** The standard deviation of the values kept. */
  getStdDev(): number;
  /** The largest value kept. */
  getMax(): number;
  /** The smallest value kept. */
  getMin(): number;
}

/** A distribution of values (Flink's Histogram). */
export interface Histogram {
  /** Adds one value. */
  update(value: number): void;
  /** Values seen since the histogram was created. */
  getCount(): number;
  /** A snapshot of the statistics over the values kept now. */
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
  /** Registers and returns a new SimpleCounter named `name`. */
  counter(name: string): Counter;
  /** Registers `counter` under `name` and returns it. */
  counter<C extends Counter>(name: string, counter: C): C;
  /** Registers a gauge (or a function read as one) under `name`; unlike Flink, a plain function is accepted. */
  gauge<T>(name: string, gauge: Gauge<T> | (() => T)): Gauge<T>;
  /** Registers `meter` under `name` and returns it. */
  meter<M extends Meter>(name: string, meter: M): M;
  /** Registers `histogram` under `name` and returns it. */
  histogram<H extends Histogram>(name: string, histogram: H): H;
  /** A child group with `name` as one more scope component. */
  addGroup(name: string): MetricGroup;
  /** A child key-value group: `key` and `value` in the scope, and a `key="value"` label in Prometheus. */
  addGroup(key: string, value: string): MetricGroup;
  /** The scope, outermost first: `['taskmanager', '<job name>', '<task name>', '<subtask index>', '<operator name>', ...groups]` (a key-value group gives its key and its value). */
  getScopeComponents(): readonly string[];
  /** The variables of the scope: `<job_id>`, `<task_name>`, ..., and one per key-value group. */
  getAllVariables(): Readonly<Record<string, string>>;
  /** The fully qualified name of `name` in this group: the scope components and the name joined by '.'. */
  getMetricIdentifier(name: string): string;
}
