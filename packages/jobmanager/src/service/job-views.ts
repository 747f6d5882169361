import type { JobDetails, JobStatusUpdate, JobSummary } from '@weir/rpc';
import type { JobMaster } from '../job/job-master.ts';

export function toJobSummary(job: JobMaster): JobSummary {
  return {
    jobId: job.jobId,
    name: job.spec.jobGraph.jobName,
    status: job.status,
    startTimeMs: job.startTimeMs,
    endTimeMs: job.endTimeMs,
  };
}

export function toJobStatusUpdate(job: JobMaster): JobStatusUpdate {
  return { jobId: job.jobId, status: job.status, failureCause: job.failureCause };
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
        .map((s) => ({ index: s.index, state: s.state, taskManagerId: s.taskManagerId, failureCause: s.failureCause })),
    })),
    failureCause: job.failureCause,
    attempt: job.attempt,
  };
}
