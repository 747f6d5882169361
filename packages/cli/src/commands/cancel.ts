import { JobStatus } from '@weir/common';
import type { CliContext } from '../context.ts';
import { checkpointDetail, statusDetail } from '../progress/details.ts';
import { Progress } from '../progress/progress.ts';
import { withJobClient } from './client-args.ts';
import type { JobArgs } from './info.ts';
import { leftBehindOnCancel } from './left-behind.ts';
import { savepointCompleted, SavepointTermination, type SavepointArgs } from './savepoint.ts';
import { waitForEnd } from './wait-for-end.ts';

export async function cancelCommand(args: JobArgs, context: CliContext): Promise<void> {
  const { status, details } = await withJobClient(args, context, async (client) => {
    const status = await client.cancel(args.jobId);
    return { status, details: await client.get(args.jobId).catch(() => undefined) };
  });
  if (status === JobStatus.CANCELED) context.out(`Cancelled job ${args.jobId}.`);
  else if (status === JobStatus.FINISHED || status === JobStatus.FAILED) context.out(`Job ${args.jobId} had already ended: ${status}.`);
  else context.out(`Cancelling job ${args.jobId}: it is ${status}; \`weir info ${args.jobId}\` shows when it is CANCELED.`);
  if (status !== JobStatus.FINISHED && status !== JobStatus.FAILED) for (const line of leftBehindOnCancel(details)) context.out(`Left behind: ${line}`);
}

/** `weir cancel -s [targetDirectory] <jobId>`: a savepoint, then the job is cancelled; waits until it is CANCELED. */
export async function cancelWithSavepointCommand(args: SavepointArgs, context: CliContext): Promise<void> {
  const savepoint = await withJobClient(args, context, async (client) => {
    const progress = Progress.start(context, `Cancelling job ${args.jobId} with a savepoint…`, `the savepoint of job ${args.jobId}`, checkpointDetail(client, args.jobId, 'SAVEPOINT'));
    try {
      const response = await client.triggerSavepoint({
        jobId: args.jobId,
        targetDirectory: args.targetDirectory ?? '',
        terminate: SavepointTermination.CANCEL,
      });
      progress.waitingFor(`job ${args.jobId} to be cancelled`, statusDetail(client, args.jobId));
      await waitForEnd(client, args.jobId, JobStatus.CANCELED, response.savepointPath);
      return { response, details: await client.get(args.jobId).catch(() => undefined) };
    } finally {
      progress.stop();
    }
  });
  for (const line of savepointCompleted(savepoint.response)) context.out(line);
  context.out(`Cancelled job ${args.jobId}.`);
  for (const line of leftBehindOnCancel(savepoint.details)) context.out(`Left behind: ${line}`);
}
