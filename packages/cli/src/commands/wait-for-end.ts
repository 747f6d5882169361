import { isGloballyTerminal, JobStatus, WeirError } from '@weir/common';
import type { JobClient } from '../client/job-client.ts';
import { CliErrorCode } from '../errors.ts';

/**
 * Waits on WatchJob until the job is terminal after a savepoint that ends it (stop: FINISHED,
 * cancel -s: CANCELED). Any other end throws, and the message keeps the savepoint's path,
 * since the savepoint itself is complete and usable whatever happened to the job after it.
 */
export async function waitForEnd(client: JobClient, jobId: string, expected: JobStatus, savepointPath: string): Promise<void> {
  let last: string | undefined;
  for await (const update of client.watch(jobId)) {
    last = update.status;
    if (!isGloballyTerminal(update.status as JobStatus)) continue;
    if (update.status === expected) return;
    const cause = update.failureCause === '' ? '' : `: ${update.failureCause}`;
    throw new WeirError(
      codeFor(update.status),
      `job ${jobId} ended ${update.status} instead of ${expected} after its savepoint${cause}; the savepoint is complete at ${savepointPath}`,
    );
  }
  throw new WeirError(
    CliErrorCode.WATCH_LOST,
    `lost track of job ${jobId} while it was ${last ?? 'unknown'}, after its savepoint completed at ${savepointPath}: the JobManager ended the status stream; see \`weir info ${jobId}\``,
  );
}

function codeFor(status: string): string {
  if (status === JobStatus.FAILED) return CliErrorCode.JOB_FAILED;
  if (status === JobStatus.CANCELED) return CliErrorCode.JOB_CANCELED;
  return CliErrorCode.UNEXPECTED_JOB_END;
}
