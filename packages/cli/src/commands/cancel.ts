import { JobStatus } from '@weir/common';
import type { CliContext } from '../context.ts';
import { withJobClient } from './client-args.ts';
import type { JobArgs } from './info.ts';

export async function cancelCommand(args: JobArgs, context: CliContext): Promise<void> {
  const status = await withJobClient(args, context, (client) => client.cancel(args.jobId));
  if (status === JobStatus.CANCELED) context.out(`Cancelled job ${args.jobId}.`);
  else if (status === JobStatus.FINISHED || status === JobStatus.FAILED) context.out(`Job ${args.jobId} had already ended: ${status}.`);
  else context.out(`Cancelling job ${args.jobId}: it is ${status}; \`weir info ${args.jobId}\` shows when it is CANCELED.`);
}
