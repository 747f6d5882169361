import { JobStatus } from '@weir/common';
import type { CliContext } from '../context.ts';
import { checkpointDetail, statusDetail } from '../progress/details.ts';
import { Progress } from '../progress/progress.ts';
import { withJobClient } from './client-args.ts';
import type { JobArgs } from './info.ts';
import { savepointCompleted, SavepointTermination } from './savepoint.ts';
import { waitForEnd } from './wait-for-end.ts';

export interface StopArgs extends JobArgs {
  /** `-p, --savepointPath`: where the savepoint goes; unset: the JobManager's state.savepoints.dir. */
  readonly savepointPath?: string;
  /** `-d, --drain`: sources end their input first, so operators flush (timers, windows), then the savepoint. */
  readonly drain: boolean;
}

/**
 * `weir stop`: a savepoint, then the job ends gracefully (FINISHED, its sinks having committed
 * everything up to the savepoint), so a job started from the savepoint continues exactly there.
 */
export async function stopCommand(args: StopArgs, context: CliContext): Promise<void> {
  const savepoint = await withJobClient(args, context, async (client) => {
    const verb = args.drain ? 'Draining' : 'Suspending';
    const progress = Progress.start(context, `${verb} job ${args.jobId} with a savepoint…`, `the savepoint of job ${args.jobId}`, checkpointDetail(client, args.jobId, 'SAVEPOINT'));
    try {
      const response = await client.triggerSavepoint({
        jobId: args.jobId,
        targetDirectory: args.savepointPath ?? '',
        terminate: SavepointTermination.STOP,
        drain: args.drain,
      });
      progress.waitingFor(`job ${args.jobId} to finish`, statusDetail(client, args.jobId));
      await waitForEnd(client, args.jobId, JobStatus.FINISHED, response.savepointPath);
      return response;
    } finally {
      progress.stop();
    }
  });
  for (const line of savepointCompleted(savepoint)) context.out(line);
  context.out(`Job ${args.jobId} has finished.`);
}
