import type { CliContext } from '../context.ts';
import { formatJobDetails } from '../format/job-details.ts';
import { withJobClient, type ClientArgs } from './client-args.ts';
import { leftBehindAfterEnd } from './left-behind.ts';

export interface JobArgs extends ClientArgs {
  readonly jobId: string;
}

export interface InfoArgs extends JobArgs {
  /** Look a left replication slot up on the server its job named (--check-slots). */
  readonly checkSlots: boolean;
}

export async function infoCommand(args: InfoArgs, context: CliContext): Promise<void> {
  const details = await withJobClient(args, context, (client) => client.get(args.jobId));
  for (const line of formatJobDetails(details)) context.out(line);
  const left = await leftBehindAfterEnd(details, args.checkSlots);
  if (left.length > 0) for (const line of ['', 'Left behind by the job:', ...left.map((l) => `  ${l}`)]) context.out(line);
}
