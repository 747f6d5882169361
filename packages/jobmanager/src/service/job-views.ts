import { JobStatus } from '@weir/common';
import type { FailoverInfo, JobDetails, JobStatusUpdate, JobSummary } from '@weir/rpc';
import type { FailureEntry } from '../job/exception-history.ts';
import type { JobMaster } from '../job/job-master.ts';
import { initializationMs } from '../job/execution.ts';
import { describeCheckpointing, describeRestartStrategy } from '../settings/describe-settings.ts';

export function toJobSummary(job: JobMaster): JobSummary {
  return {
    jobId: job.jobId,
    name: job.spec.jobGraph.jobName,
    status: job.status,
    startTimeMs: job.startTimeMs,
    endTimeMs: job.endTimeMs,
  };
}

/** The status, with the failover's cause while FAILING, RESTARTING (and the delay before the next attempt) or FAILED. */
export function toJobStatusUpdate(job: JobMaster): JobStatusUpdate {
  const cause = job.failoverCause;
  const latest = job.exceptions().entries[0];
  const delay = latest?.attempt === job.attempt ? latest.restart : undefined;
  const restarting = job.status === JobStatus.RESTARTING && typeof delay === 'number';
  return {
    jobId: job.jobId,
    status: job.status,
    failureCause: job.failureCause,
    attempt: job.attempt,
    failoverCause: cause?.message ?? '',
    failoverCode: cause?.code ?? '',
    restartDelayMs: restarting ? delay : 0,
    restartStrategy: restarting ? job.restartStrategyName : '',
  };
}

/** A failover as `weir info` lists it: an exception history entry whose restart was decided. */
export function toFailoverInfo(entry: FailureEntry): FailoverInfo {
  return {
    attempt: entry.attempt,
    timeMs: entry.timestampMs,
    code: entry.code,
    cause: entry.message,
    restarted: typeof entry.restart === 'number',
    restartDelayMs: typeof entry.restart === 'number' ? entry.restart : 0,
  };
}

/** The job with its vertices; subtasks are listed once deployed (a job waiting for slots has none yet). */
export function toJobDetails(job: JobMaster): JobDetails {
  const subtasks = job.subtasks();
  return {
    summary: toJobSummary(job),
    vertices: job.spec.jobGraph.vertices.map((vertex) => ({
      vertexId: vertex.id,
      name: vertex.name,
      parallelism: vertex.parallelism,
      maxParallelism: vertex.maxParallelism,
      operators: vertex.operators.map((op) => ({ operatorId: op.operatorId, uid: op.uid ?? '', name: op.name })),
      inputs: vertex.inputs.map((edge) => ({ sourceVertexId: edge.sourceVertexId, partitioner: edge.partitioner })),
      subtasks: subtasks
        .filter((s) => s.vertexId === vertex.id)
        .sort((a, b) => a.index - b.index)
        .map((s) => ({ index: s.index, state: s.state, taskManagerId: s.taskManagerId, failureCause: s.failureCause, initializationMs: initializationMs(s) ?? -1 })),
    })),
    failureCause: job.failureCause,
    attempt: job.attempt,
    failovers: job.exceptions().entries.filter((entry) => entry.restart !== undefined).map(toFailoverInfo),
    checkpointing: describeCheckpointing(job.spec.settings.checkpointing),
    restartStrategy: describeRestartStrategy(job.spec.settings.restartStrategy),
    configuration: { ...job.spec.configuration },
    exclusiveResources: (job.spec.exclusiveResources ?? []).map(({ kind, scope, name, description, leftBehind }) => ({ kind, scope, name, description, leftBehind: leftBehind ?? '' })),
  };
}
