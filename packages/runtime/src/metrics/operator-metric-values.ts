import type { Counter, Gauge, Histogram, Meter } from '@weir/api';
import { queryName } from '@weir/common';
import type { RegisteredMetric } from './operator-metric-group.ts';

/** One figure of an operator's metrics, named for the REST API and for Prometheus. */
export interface OperatorMetricValue {
  /**
   * Flink's name below the operator scope, as its REST API and MetricStore give it: 'numRecordsIn',
   * 'city.berlin.hits', 'latency_p99' (each component through @weir/common's `queryName`); a histogram's figures
   * are Flink's `_min`, `_max`, `_mean`, `_median`, `_stddev`, `_p75` … `_p999`, and `_count`.
   */
  readonly name: string;
  /** Its Prometheus series below the operator scope ('city_hits', 'latency'), or undefined when Prometheus does not get it. */
  readonly prometheus: { readonly name: string; readonly labels: Readonly<Record<string, string>> } | undefined;
  readonly value: number;
}

/**
 * A histogram's quantiles: Flink's MetricStore (REST) name suffix, and whether Flink's
 * PrometheusReporter exports it (as the `quantile` label; 0.9 it does not).
 */
const HISTOGRAM_QUANTILES = [
  ['median', 0.5, true],
  ['p75', 0.75, true],
  ['p90', 0.9, false],
  ['p95', 0.95, true],
  ['p98', 0.98, true],
  ['p99', 0.99, true],
  ['p999', 0.999, true],
] as const;

/** Appends the figures of one metric: one for a counter, gauge or meter, a histogram's statistics. Gauges of no number are left out. */
export function flatten(entry: RegisteredMetric, ended: boolean, out: OperatorMetricValue[]): void {
  const name = [...entry.path, entry.name].map(queryName).join('.');
  const promName = [...entry.logical, entry.name].map(sanitize).join('_');
  const labels = entry.variables;
  const one = (value: number): void => void out.push({ name, prometheus: { name: promName, labels }, value });
  const metric = entry.metric;
  if (isHistogram(metric)) {
    const statistics = metric.getStatistics();
    const count = metric.getCount();
    out.push({ name: `${name}_count`, prometheus: { name: `${promName}_count`, labels }, value: count });
    for (const [suffix, quantile, exported] of HISTOGRAM_QUANTILES) {
      const prometheus = exported ? { name: promName, labels: { ...labels, quantile: String(quantile) } } : undefined;
      out.push({ name: `${name}_${suffix}`, prometheus, value: statistics.getQuantile(quantile) });
    }
    out.push({ name: `${name}_min`, prometheus: undefined, value: statistics.getMin() });
    out.push({ name: `${name}_max`, prometheus: undefined, value: statistics.getMax() });
    out.push({ name: `${name}_mean`, prometheus: undefined, value: statistics.getMean() });
    out.push({ name: `${name}_stddev`, prometheus: undefined, value: statistics.getStdDev() });
  } else if (isMeter(metric)) one(ended ? 0 : metric.getRate());
  else if (isCounter(metric)) one(metric.getCount());
  else {
    const value = (metric as Gauge<unknown>).getValue();
    if (typeof value === 'number') one(value);
    else if (typeof value === 'boolean') one(value ? 1 : 0);
  }
}

/** Prometheus names allow [a-zA-Z0-9_:]; Flink's reporter turns anything else into '_'. */
function sanitize(part: string): string {
  return part.replace(/[^a-zA-Z0-9_:]/g, '_');
}

function isHistogram(metric: RegisteredMetric['metric']): metric is Histogram {
  return typeof (metric as Histogram).getStatistics === 'function';
}

function isMeter(metric: RegisteredMetric['metric']): metric is Meter {
  return typeof (metric as Meter).getRate === 'function';
}

function isCounter(metric: RegisteredMetric['metric']): metric is Counter {
  return typeof (metric as Counter).getCount === 'function';
}
