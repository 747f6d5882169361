import type { JobVertex } from '@weir/api';
import type { TaskMetricsSnapshot } from '@weir/common';
import { backPressureLevel } from '@weir/metrics';
import type { SubtaskExecution } from '../../job/execution.ts';
import type { JobMaster } from '../../job/job-master.ts';
import type { SubtaskMetrics, MetricStore } from '../../metrics/metric-store.ts';
import { aggregateState, countTasks } from './task-counts.ts';

/** Flink's IO figures of a vertex or subtask (`metrics` in the job and vertex JSON), plus Weir's rates. */
export interface IoMetricsView {
  readonly 'read-bytes': number;
  readonly 'read-bytes-complete': boolean;
  readonly 'write-bytes': number;
  readonly 'write-bytes-complete': boolean;
  readonly 'read-records': number;
  readonly 'read-records-complete': boolean;
  readonly 'write-records': number;
  readonly 'write-records-complete': boolean;
  readonly 'accumulated-backpressured-time': number;
  readonly 'accumulated-idle-time': number;
  readonly 'accumulated-busy-time': number;
  readonly 'read-records-per-second': number;
  readonly 'write-records-per-second': number;
}

/** How busy and back-pressured a vertex is: the worst subtask, as Flink's back pressure view reports it. */
export interface BackPressureView {
  readonly level: string;
  /** Share of time the most back-pressured subtask waited for output capacity (0..1). */
  readonly ratio: number;
  readonly 'busy-ratio': number;
  readonly 'idle-ratio': number;
}

/** The metrics of the current attempt's subtasks of a vertex, by index; absent for a subtask that has sent none yet. */
function subtaskMetrics(job: JobMaster, store: MetricStore, vertexId: string, subtasks: readonly SubtaskExecution[]): (SubtaskMetrics | undefined)[] {
  return subtasks.map((s) => store.subtask(job.jobId, vertexId, s.index, job.attempt));
}

export function ioMetrics(reports: readonly (SubtaskMetrics | undefined)[]): IoMetricsView {
  const complete = reports.length > 0 && reports.every((r) => r !== undefined);
  const sum = (name: keyof TaskMetricsSnapshot): number => reports.reduce((total, r) => total + (r?.metrics[name] ?? 0), 0);
  return {
    'read-bytes': sum('numBytesIn'),
    'read-bytes-complete': complete,
    'write-bytes': sum('numBytesOut'),
    'write-bytes-complete': complete,
    'read-records': sum('numRecordsIn'),
    'read-records-complete': complete,
    'write-records': sum('numRecordsOut'),
    'write-records-complete': complete,
    'accumulated-backpressured-time': sum('accumulatedBackPressuredTimeMs'),
    'accumulated-idle-time': sum('accumulatedIdleTimeMs'),
    'accumulated-busy-time': sum('accumulatedBusyTimeMs'),
    'read-records-per-second': sum('numRecordsInPerSecond'),
    'write-records-per-second': sum('numRecordsOutPerSecond'),
  };
}

export function backPressure(reports: readonly (SubtaskMetrics | undefined)[]): BackPressureView {
  let ratio = 0;
  let busy = 0;
  let idle = 0;
  for (const report of reports) {
    if (report === undefined) continue;
    ratio = Math.max(ratio, report.metrics.backPressuredTimeMsPerSecond / 1000);
    busy = Math.max(busy, report.metrics.busyTimeMsPerSecond / 1000);
    idle = Math.max(idle, report.metrics.idleTimeMsPerSecond / 1000);
  }
  return { level: backPressureLevel(ratio), ratio, 'busy-ratio': busy, 'idle-ratio': idle };
}

/** Flink's low watermark of a vertex: the lowest input watermark of its subtasks; null while one has none or none reported. */
export function lowWatermark(reports: readonly (SubtaskMetrics | undefined)[]): number | null {
  const present = reports.filter((r): r is SubtaskMetrics => r !== undefined);
  if (present.length === 0) return null;
  const low = Math.min(...present.map((r) => r.metrics.currentInputWatermark));
  return Number.isFinite(low) ? low : null;
}

/** The vertex's current-attempt subtasks, by index. */
export function subtasksOf(job: JobMaster, vertexId: string): SubtaskExecution[] {
  return job
    .subtasks()
    .filter((s) => s.vertexId === vertexId)
    .sort((a, b) => a.index - b.index);
}

/** One vertex in the job JSON: parallelism, aggregate status, subtask counts, IO metrics and back pressure. */
export function vertexSummary(job: JobMaster, store: MetricStore, vertex: JobVertex): object {
  const subtasks = subtasksOf(job, vertex.id);
  const tasks = countTasks(subtasks, vertex.parallelism);
  const reports = subtaskMetrics(job, store, vertex.id, subtasks);
  return {
    id: vertex.id,
    name: vertex.name,
    maxParallelism: vertex.maxParallelism,
    parallelism: vertex.parallelism,
    status: aggregateState(tasks),
    tasks,
    metrics: ioMetrics(reports),
    backpressure: backPressure(reports),
    watermark: lowWatermark(reports),
  };
}

/** GET /jobs/:id/vertices/:vertexId: the vertex with each subtask's state, TaskManager and metrics. */
export function vertexDetails(job: JobMaster, store: MetricStore, vertex: JobVertex, now: number): object {
  const subtasks = subtasksOf(job, vertex.id);
  return {
    id: vertex.id,
    name: vertex.name,
    parallelism: vertex.parallelism,
    maxParallelism: vertex.maxParallelism,
    now,
    subtasks: subtasks.map((s) => {
      const report = store.subtask(job.jobId, vertex.id, s.index, job.attempt);
      return {
        subtask: s.index,
        status: s.state,
        attempt: job.attempt,
        'taskmanager-id': s.taskManagerId,
        'failure-cause': s.failureCause === '' ? null : s.failureCause,
        'start-time': s.timestamps.DEPLOYING ?? null,
        // Flink's subtask status durations: INITIALIZING is opening the state backend, restoring the state and opening the operators.
        'status-duration': statusDurations(s, now),
        metrics: ioMetrics([report]),
        backpressure: backPressure([report]),
        watermark: lowWatermark([report]),
        'metrics-updated': report?.receivedAtMs ?? null,
      };
    }),
  };
}

/** Milliseconds the subtask spent in each state it went through, the current one up to `now`. */
function statusDurations(subtask: SubtaskExecution, now: number): Record<string, number> {
  const entered = Object.entries(subtask.timestamps).sort(([, a], [, b]) => a! - b!);
  return Object.fromEntries(entered.map(([state, at], i) => [state, (entered[i + 1]?.[1] ?? now) - at!]));
}
