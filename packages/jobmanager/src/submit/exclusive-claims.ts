import { exclusiveResourceKey, type ExclusiveResource } from '@weir/api';
import { WeirError } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/** A job holding claims: one that has not ended, or one being submitted. */
export interface ClaimingJob {
  readonly jobId: string;
  readonly jobName: string;
  readonly resources: readonly ExclusiveResource[];
}

/**
 * Keeps two jobs from running with the same exclusive resource (Sink.exclusiveResources): an
 * exactly-once sink aborts its prefix's lingering transactions when it starts, so a second job
 * with the first one's prefix would abort the first one's open transactions and lose its
 * output. Submissions reserve their claims from the check until they run or fail, so two
 * submissions planned at the same time cannot both pass.
 */
export class ExclusiveClaims {
  readonly #submitting = new Map<string, ClaimingJob>();

  constructor(
    /** The jobs that have not ended, with what they claim. */
    private readonly liveJobs: () => Iterable<ClaimingJob>,
  ) {}

  /** Throws RESOURCE_IN_USE naming the job that holds a claim; else holds the claims until `release` (call it once the job runs, or failed to start). */
  reserve(job: ClaimingJob): { release(): void } {
    if (job.resources.length > 0) {
      const wanted = new Map(job.resources.map((r) => [exclusiveResourceKey(r), r]));
      for (const other of [...this.liveJobs(), ...this.#submitting.values()]) {
        if (other.jobId === job.jobId) continue;
        const clash = other.resources.find((r) => wanted.has(exclusiveResourceKey(r)));
        if (clash !== undefined) {
          throw new WeirError(
            JobManagerErrorCode.RESOURCE_IN_USE,
            `job '${job.jobName}' uses ${clash.description}, which job '${other.jobName}' (${other.jobId}) uses while it runs: ` +
              (clash.kind.endsWith('replication-slot')
                ? 'each would take changes the other one then never sees; give this job its own (slotName), or stop the other job first'
                : 'each would abort the other\'s open transactions and lose output; give this job its own (setTransactionalIdPrefix / setTransactionIdPrefix), or stop the other job first'),
          );
        }
      }
    }
    this.#submitting.set(job.jobId, job);
    return { release: () => this.#submitting.delete(job.jobId) };
  }
}
