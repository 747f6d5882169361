import type { CliContext } from '../context.ts';
import { formatJobList } from '../format/job-details.ts';
import { withJobClient, type ClientArgs } from './client-args.ts';

export async function listCommand(args: ClientArgs, context: CliContext): Promise<void> {
  const jobs = await withJobClient(args, context, (client) => client.list());
  for (const line of formatJobList(jobs)) context.out(line);
}
