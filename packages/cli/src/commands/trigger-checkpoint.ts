import type { CliContext } from '../context.ts';
import { checkpointDetail } from '../progress/details.ts';
import { Progress } from '../progress/progress.ts';
import { withJobClient } from './client-args.ts';
import type { JobArgs } from './info.ts';

export interface CheckpointArgs extends JobArgs {
  /** `--full`: every state file uploaded (Flink's `flink checkpoint -full`); else the job's configured kind. */
  readonly full: boolean;
}

/**
 * `weir checkpoint <jobId> [--full]`: a checkpoint of a running job now (Flink 1.19's
 * `flink checkpoint`), waited for; prints its ID and path. The job's sinks commit what came
 * before it, as after a periodic checkpoint.
 */
export async function checkpointCommand(args: CheckpointArgs, context: CliContext): Promise<void> {
  const checkpoint = await withJobClient(args, context, async (client) => {
    const progress = Progress.start(context, `Triggering ${args.full ? 'a full ' : ''}checkpoint for job ${args.jobId}…`, `the checkpoint of job ${args.jobId}`, checkpointDetail(client, args.jobId));
    try {
      return await client.triggerCheckpoint({ jobId: args.jobId, checkpointType: args.full ? 'FULL' : 'CONFIGURED' });
    } finally {
      progress.stop();
    }
  });
  context.out(`Checkpoint ${checkpoint.checkpointId} completed. Path: ${checkpoint.checkpointPath}`);
}
