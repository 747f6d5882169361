import type { OperatorMetricsSnapshot, ProcessMetricsSnapshot, SubtaskKey, SubtaskMetricsReport, TaskManagerMetricsReport, TaskMetricsSnapshot } from '@weir/common';
import type { OperatorMetrics__Output } from '../generated/weir/v1/OperatorMetrics.ts';
import type { MetricsReport, MetricsReport__Output } from '../generated/weir/v1/MetricsReport.ts';
import type { ProcessMetrics__Output } from '../generated/weir/v1/ProcessMetrics.ts';
import type { SubtaskMetrics__Output } from '../generated/weir/v1/SubtaskMetrics.ts';
import { decodeTaskKey, encodeTaskKey } from './task-key-codec.ts';

/**
 * The metrics report of the control stream (TaskManager → JobManager): one encoder, one
 * decoder, between the proto `MetricsReport` and @weir/common's `TaskManagerMetricsReport`.
 * The proto fields carry the domain names, so both directions copy the figures by name.
 */

const TASK_FIELDS = [
  'numRecordsIn',
  'numRecordsOut',
  'numBytesIn',
  'numBytesOut',
  'numRecordsInPerSecond',
  'numRecordsOutPerSecond',
  'numBytesInPerSecond',
  'numBytesOutPerSecond',
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'accumulatedBusyTimeMs',
  'accumulatedBackPressuredTimeMs',
  'accumulatedIdleTimeMs',
  'inputQueueLength',
  'outputQueueLength',
  'inPoolUsage',
  'outPoolUsage',
  'currentInputWatermark',
] as const satisfies readonly (keyof TaskMetricsSnapshot)[];

const PROCESS_FIELDS = [
  'heapUsedBytes',
  'heapTotalBytes',
  'heapMaxBytes',
  'rssBytes',
  'externalBytes',
  'gcCount',
  'gcTimeMs',
  'eventLoopDelayMeanMs',
  'eventLoopDelayP99Ms',
  'eventLoopDelayMaxMs',
  'cpuUserMs',
  'cpuSystemMs',
  'uptimeMs',
] as const satisfies readonly (keyof ProcessMetricsSnapshot)[];

function pick<F extends string>(fields: readonly F[], from: Readonly<Record<F, number | string>>): Record<F, number> {
  return Object.fromEntries(fields.map((field) => [field, Number(from[field])])) as Record<F, number>;
}

export function encodeMetricsReport(report: TaskManagerMetricsReport): MetricsReport {
  return {
    process: pick(PROCESS_FIELDS, report.process),
    tasks: report.tasks.map(({ task, metrics, operators }) => ({
      task: encodeTaskKey(task),
      ...pick(TASK_FIELDS, metrics),
      operators: operators.map((o) => ({ operatorId: o.operatorId, operatorName: o.operatorName, metrics: [...o.metrics] })),
    })),
  };
}

/** The report, or why it is unusable (no process metrics, a subtask entry naming no task, an operator or metric without a name). */
export function decodeMetricsReport(message: MetricsReport__Output): TaskManagerMetricsReport | string {
  if (message.process === null) return 'a metrics report without process metrics';
  const tasks: SubtaskMetricsReport[] = [];
  for (const entry of message.tasks) {
    const task = decodeSubtask(entry);
    if (typeof task === 'string') return task;
    const operators = decodeOperators(entry.operators);
    if (typeof operators === 'string') return operators;
    tasks.push({ task, metrics: pick(TASK_FIELDS, entry), operators });
  }
  return { process: pick(PROCESS_FIELDS, message.process as ProcessMetrics__Output), tasks };
}

function decodeSubtask(entry: SubtaskMetrics__Output): SubtaskKey | string {
  const key = entry.task;
  if (key === null || key.jobId === '' || key.vertexId === '') return 'a metrics report entry that names no subtask';
  return decodeTaskKey(key);
}

function decodeOperators(entries: readonly OperatorMetrics__Output[]): OperatorMetricsSnapshot[] | string {
  const operators: OperatorMetricsSnapshot[] = [];
  for (const entry of entries) {
    if (entry.operatorId === '') return 'a metrics report entry of an operator without an operator ID';
    const metrics: { name: string; value: number }[] = [];
    for (const metric of entry.metrics) {
      if (metric.name === '') return `a metrics report entry of operator ${entry.operatorId} with a metric without a name`;
      metrics.push({ name: metric.name, value: Number(metric.value) });
    }
    operators.push({ operatorId: entry.operatorId, operatorName: entry.operatorName, metrics });
  }
  return operators;
}
