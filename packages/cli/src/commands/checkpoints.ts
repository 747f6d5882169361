import type { CliContext } from '../context.ts';
import { formatCheckpoints } from '../format/checkpoints.ts';
import { withJobClient } from './client-args.ts';
import type { JobArgs } from './info.ts';

export async function checkpointsCommand(args: JobArgs, context: CliContext): Promise<void> {
  const history = await withJobClient(args, context, (client) => client.checkpoints(args.jobId));
  for (const line of formatCheckpoints(args.jobId, history)) context.out(line);
}
