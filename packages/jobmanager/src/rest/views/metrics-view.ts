import { queryName } from '@weir/common';
import { TASK_METRIC_HELP, type TaskMetricName } from '@weir/metrics';
import type { SubtaskMetrics } from '../../metrics/metric-store.ts';
import { badRequest } from '../rest-errors.ts';

/** Metric values by the ID Flink's REST API gives them, in the order they are listed. */
export type MetricValues = ReadonlyMap<string, number>;

/** Flink's aggregations over subtasks (its AggregatedMetric's fields), in the order an answer gives them. */
const AGGREGATIONS = ['min', 'max', 'avg', 'sum', 'skew'] as const;
type Aggregation = (typeof AGGREGATIONS)[number];

/**
 * A subtask's metrics by the IDs Flink's REST API gives them below the subtask: its task
 * metrics by name ('numRecordsIn', 'busyTimeMsPerSecond'), its operators' as
 * '<operator name>.<metric>' ('Map.numRecordsIn', 'Map.city.berlin.hits'), the operator's name
 * through Flink's query-service filter ('Source: events' is 'Source__events'). Operators of
 * one chain with the same name share IDs, as in Flink: the later one's values are given.
 * Nothing before the subtask's first report.
 */
export function subtaskMetricValues(report: SubtaskMetrics | undefined): Map<string, number> {
  const values = new Map<string, number>();
  if (report === undefined) return values;
  for (const name of Object.keys(TASK_METRIC_HELP) as TaskMetricName[]) values.set(name, report.metrics[name]);
  for (const operator of report.operators) {
    const prefix = queryName(operator.operatorName);
    for (const { name, value } of operator.metrics) values.set(`${prefix}.${name}`, value);
  }
  return values;
}

/** A vertex's metrics: each subtask's (by index), as '<subtask index>.<id>' ('0.numRecordsIn', '1.Map.numRecordsOut'), as Flink's MetricStore keys them. */
export function vertexMetricValues(subtasks: readonly MetricValues[]): Map<string, number> {
  const values = new Map<string, number>();
  subtasks.forEach((subtask, index) => {
    for (const [id, value] of subtask) values.set(`${index}.${id}`, value);
  });
  return values;
}

/**
 * Flink's MetricCollectionResponseBody: without `get` the IDs there are (`[{id}]`); with it,
 * the values of those asked for that are there, in the order asked, as strings, as Flink gives
 * them (`[{id, value}]`: '42', '12.5', '-Infinity' for a watermark before the first).
 */
export function metricCollection(values: MetricValues, get: readonly string[] | undefined): { id: string; value?: string }[] {
  if (get === undefined) return [...values.keys()].map((id) => ({ id }));
  return get.filter((id) => values.has(id)).map((id) => ({ id, value: String(values.get(id)) }));
}

/**
 * Flink's AggregatedMetricsResponseBody over subtasks: without `get` the IDs any of them has
 * (`[{id}]`); with it, for each metric asked for that some subtask has, the aggregations asked
 * for (all five by default) over the subtasks that have it: `[{id, min, max, avg, sum, skew}]`.
 * Skew is Flink's: the mean absolute deviation as a percentage of the mean, at most 100, 0 for a
 * mean of 0. A figure that is no finite number (a watermark before the first is -Infinity) is null.
 */
export function aggregatedMetrics(subtasks: readonly MetricValues[], get: readonly string[] | undefined, aggregations: readonly Aggregation[] = AGGREGATIONS): object[] {
  if (get === undefined) return [...new Set(subtasks.flatMap((s) => [...s.keys()]))].map((id) => ({ id }));
  const answer: object[] = [];
  for (const id of get) {
    const values = subtasks.filter((s) => s.has(id)).map((s) => s.get(id)!);
    if (values.length === 0) continue;
    const figures = aggregate(values);
    answer.push({ id, ...Object.fromEntries(aggregations.map((a) => [a, finiteOrNull(figures[a])])) });
  }
  return answer;
}

function aggregate(values: readonly number[]): Record<Aggregation, number> {
  const sum = values.reduce((total, v) => total + v, 0);
  const avg = sum / values.length;
  const deviation = values.reduce((total, v) => total + Math.abs(avg - v), 0) / values.length;
  return { min: Math.min(...values), max: Math.max(...values), avg, sum, skew: avg === 0 ? 0 : Math.min((deviation / avg) * 100, 100) };
}

function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** A list query parameter as Flink takes it: comma-separated, and repeatable (`get=a,b&get=c`); undefined when absent or empty. */
export function listParameter(query: unknown, name: string): string[] | undefined {
  const raw = (query as Record<string, string | string[] | undefined>)[name];
  if (raw === undefined) return undefined;
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return items.length === 0 ? undefined : items;
}

/** `agg=min,max,avg,sum,skew` (any case): Flink's aggregations; all of them when absent. */
export function aggregationsOf(query: unknown): Aggregation[] {
  const asked = listParameter(query, 'agg');
  if (asked === undefined) return [...AGGREGATIONS];
  const lower = asked.map((a) => a.toLowerCase());
  const unknown = lower.find((a) => !(AGGREGATIONS as readonly string[]).includes(a));
  if (unknown !== undefined) throw badRequest(`agg takes ${AGGREGATIONS.join(', ')}, not '${unknown}'`);
  return AGGREGATIONS.filter((a) => lower.includes(a));
}

/** `subtasks=0,2-4`: Flink's subtask filter, indexes and ranges; every subtask of `parallelism` when absent. Indexes beyond the vertex are no subtask and are left out. */
export function subtasksOf(query: unknown, parallelism: number): number[] {
  const asked = listParameter(query, 'subtasks');
  if (asked === undefined) return Array.from({ length: parallelism }, (_, i) => i);
  const chosen = new Set<number>();
  for (const item of asked) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(item);
    if (match === null) throw badRequest(`subtasks takes indexes and ranges such as 0,2-4, not '${item}'`);
    const from = Number(match[1]);
    const to = Math.min(Number(match[2] ?? match[1]), parallelism - 1);
    for (let i = from; i <= to; i++) chosen.add(i);
  }
  return [...chosen].sort((a, b) => a - b);
}
