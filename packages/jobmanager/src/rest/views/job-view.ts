import { JobStatus, isGloballyTerminal } from '@weir/common';
import type { JobMaster } from '../../job/job-master.ts';
import type { MetricStore } from '../../metrics/metric-store.ts';
import { planView } from './plan-view.ts';
import { countTasks } from './task-counts.ts';
import { vertexSummary } from './vertex-view.ts';

/** Flink's `-1` for a job that has not ended. */
function endTime(job: JobMaster): number {
  return job.endTimeMs === 0 ? -1 : job.endTimeMs;
}

function duration(job: JobMaster, now: number): number {
  return (job.endTimeMs === 0 ? now : job.endTimeMs) - job.startTimeMs;
}

function lastModification(job: JobMaster): number {
  return Math.max(job.startTimeMs, ...Object.values(job.statusTimestamps()).map((t) => t ?? 0));
}

/** One job in GET /jobs/overview. */
export function jobOverview(job: JobMaster, now: number): object {
  const total = job.spec.jobGraph.vertices.reduce((sum, v) => sum + v.parallelism, 0);
  return {
    jid: job.jobId,
    name: job.spec.jobGraph.jobName,
    state: job.status,
    'start-time': job.startTimeMs,
    'end-time': endTime(job),
    duration: duration(job, now),
    'last-modification': lastModification(job),
    tasks: countTasks(job.subtasks(), total),
  };
}

/** Every JobStatus with the time the job last entered it, 0 for those it never was in (as Flink). */
function timestamps(job: JobMaster): Record<string, number> {
  const entered = job.statusTimestamps();
  return Object.fromEntries(Object.values(JobStatus).map((status) => [status, entered[status] ?? 0]));
}

/** GET /jobs/:id: the job with its vertices (status, parallelism, records, back pressure) and its plan. */
export function jobDetails(job: JobMaster, store: MetricStore, now: number): object {
  const graph = job.spec.jobGraph;
  const total = graph.vertices.reduce((sum, v) => sum + v.parallelism, 0);
  return {
    jid: job.jobId,
    name: graph.jobName,
    isStoppable: job.spec.settings.checkpointing !== undefined,
    state: job.status,
    'start-time': job.startTimeMs,
    'end-time': endTime(job),
    duration: duration(job, now),
    maxParallelism: Math.max(...graph.vertices.map((v) => v.maxParallelism)),
    now,
    attempt: job.attempt,
    'failure-cause': job.failureCause === '' ? null : job.failureCause,
    timestamps: timestamps(job),
    vertices: graph.vertices.map((vertex) => vertexSummary(job, store, vertex)),
    'status-counts': countTasks(job.subtasks(), total),
    plan: planView(job.jobId, graph).plan,
    // Weir's own: who submitted it (principalId, `token:alice`), so the dashboard shows a submitter the buttons of its own jobs; null when not known (submitted without authentication).
    owner: job.spec.owner === undefined || job.spec.owner === '' ? null : job.spec.owner,
  };
}

/** Counts of GET /overview: jobs by state, as Flink groups them (CANCELLING counts as running). */
export function jobCounts(jobs: readonly JobMaster[]): { running: number; finished: number; cancelled: number; failed: number } {
  const counts = { running: 0, finished: 0, cancelled: 0, failed: 0 };
  for (const job of jobs) {
    if (!isGloballyTerminal(job.status)) counts.running++;
    else if (job.status === JobStatus.FINISHED) counts.finished++;
    else if (job.status === JobStatus.CANCELED) counts.cancelled++;
    else counts.failed++;
  }
  return counts;
}
