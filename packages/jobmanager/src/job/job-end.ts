import { type JobStatus, type Logger } from '@weir/common';
import type { JobEndStatus } from '@weir/api';
import type { CheckpointCoordinator } from '../checkpoint/checkpoint-coordinator.ts';
import type { SourceCoordinators } from '../source/source-coordinators.ts';
import type { JobUserCode } from '../user-code/job-worker.ts';

/** What a job that ended for good still has to let go of. */
export interface EndingJob {
  readonly status: JobEndStatus;
  /** The root cause's message for a FAILED job, empty otherwise. */
  readonly failureCause: string;
  readonly logger: Logger;
  readonly checkpoints: CheckpointCoordinator | undefined;
  readonly sources: SourceCoordinators | undefined;
  readonly userCode: JobUserCode | undefined;
  /** Whether the job has split sources, which hear of its end in the worker. */
  readonly hasSplitSources: boolean;
  /** Makes the end durable (HA: the job's record in etcd); a rejection leaves the checkpoints for the next leader. */
  readonly recordEnd: ((status: JobStatus, failureCause: string) => Promise<void>) | undefined;
}

/**
 * Sets going, each on its own, what a job's end releases: the end's record and then the
 * checkpoints' retention policy, the split enumerators, and the job's worker after its split
 * sources heard of the end (a CDC source drops its replication slot there).
 */
export function releaseEndedJob(job: EndingJob): void {
  if (job.checkpoints !== undefined) void retainCheckpoints(job, job.checkpoints);
  void job.sources?.close();
  if (job.checkpoints === undefined) void job.recordEnd?.(job.status, job.failureCause).catch(() => undefined);
  if (job.userCode !== undefined) void endUserCode(job, job.userCode);
}

/** The retention policy runs only once the end is recorded: a leader that could not record it leaves the checkpoints to the next one. */
async function retainCheckpoints(job: EndingJob, checkpoints: CheckpointCoordinator): Promise<void> {
  try {
    await job.recordEnd?.(job.status, job.failureCause);
  } catch (err) {
    checkpoints.suspend();
    job.logger.warn({ err }, `job ${job.status}, but that could not be recorded; its checkpoints stay for the next leader`);
    return;
  }
  await checkpoints.jobEnded(job.status);
}

async function endUserCode(job: EndingJob, userCode: JobUserCode): Promise<void> {
  if (job.hasSplitSources) {
    try {
      for (const failure of await userCode.jobEnded(job.status)) job.logger.warn({ status: job.status }, failure);
    } catch (err) {
      job.logger.warn({ status: job.status, err: (err as Error).message }, "the job's split sources could not hear of its end");
    }
  }
  await userCode.close();
}
