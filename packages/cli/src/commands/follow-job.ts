import { JobStatus, WeirError, durationText } from '@weir/common';
import type { JobStatusUpdate__Output } from '@weir/rpc';
import type { JobClient } from '../client/job-client.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';
import { formatTime } from '../format/time.ts';
import { jobDetail } from '../progress/details.ts';
import { Progress } from '../progress/progress.ts';
import { leftBehindOnCancel } from './left-behind.ts';
import { SlotWaitReporter } from './slot-wait.ts';

/**
 * Prints every status change, with the cause of every failover, the attempt and the restart
 * delay, and while the job waits for slots how many it waits for; on a terminal a status line
 * below shows the time since the submission and the checkpoint in progress with its
 * acknowledgements. Resolves on FINISHED, throws on FAILED, CANCELED or a lost stream.
 */
export async function followJob(client: JobClient, jobId: string, context: CliContext): Promise<void> {
  const progress = Progress.start(context, undefined, `job ${jobId} to end`, jobDetail(client, jobId));
  const slots = new SlotWaitReporter(client, jobId, context);
  try {
    await follow(client, jobId, context, progress, slots);
  } finally {
    slots.stop();
    progress.stop();
  }
}

async function follow(client: JobClient, jobId: string, context: CliContext, progress: Progress, slots: SlotWaitReporter): Promise<void> {
  let last: string | undefined;
  let failedAttemptShown: number | undefined;
  for await (const update of client.watch(jobId)) {
    if (update.status !== last) {
      const failure = update.failoverCause !== '' && failedAttemptShown !== update.attempt && update.status !== JobStatus.FAILED;
      if (failure) failedAttemptShown = update.attempt;
      context.out(`${formatTime(context.clock.now())}  Job ${jobId} is ${update.status}${statusDetail(update, failure)}`);
      progress.waitingFor(`job ${jobId} to end (${update.status})`, jobDetail(client, jobId));
      slots.statusChanged(update.status, update.restartDelayMs);
    }
    last = update.status;
    if (update.status === JobStatus.FINISHED) {
      context.out(`Job ${jobId} has finished.`);
      return;
    }
    if (update.status === JobStatus.FAILED || update.status === JobStatus.CANCELED) {
      // A kept replication slot, say: what the job leaves outside the cluster, and how to remove it.
      for (const line of leftBehindOnCancel(await Promise.resolve().then(() => client.get(jobId)).catch(() => undefined))) context.out(`Left behind: ${line}`);
    }
    if (update.status === JobStatus.FAILED) {
      throw new WeirError(CliErrorCode.JOB_FAILED, `job ${jobId} failed: ${update.failureCause || 'no cause reported'}`);
    }
    if (update.status === JobStatus.CANCELED) {
      throw new WeirError(CliErrorCode.JOB_CANCELED, `job ${jobId} was canceled`);
    }
  }
  throw new WeirError(
    CliErrorCode.WATCH_LOST,
    `lost track of job ${jobId} while it was ${last ?? 'unknown'}: the JobManager ended the status stream; see \`weir info ${jobId}\``,
  );
}

/**
 * `: attempt 2 failed: <first line of the cause> [CODE]` once per failover (on FAILING, or on
 * RESTARTING when the job went there at once), and the restart delay on RESTARTING.
 */
function statusDetail(update: JobStatusUpdate__Output, failure: boolean): string {
  const parts: string[] = [];
  if (failure) {
    const [firstLine] = update.failoverCause.split('\n');
    const more = update.failoverCause.includes('\n') ? ` (\`weir info ${update.jobId}\` has the rest)` : '';
    parts.push(`attempt ${update.attempt} failed: ${firstLine}${update.failoverCode === '' ? '' : ` [${update.failoverCode}]`}${more}`);
  }
  if (update.status === JobStatus.RESTARTING && update.restartStrategy !== '') {
    parts.push(`attempt ${update.attempt + 1} starts in ${durationText(update.restartDelayMs)} (restart strategy ${update.restartStrategy})`);
  }
  return parts.length === 0 ? '' : `: ${parts.join('; ')}`;
}
