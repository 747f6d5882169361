import type { TriggerSavepointResponse__Output } from '@weir/rpc';
import type { CliContext } from '../context.ts';
import { checkpointDetail } from '../progress/details.ts';
import { Progress } from '../progress/progress.ts';
import { withJobClient, type ClientArgs } from './client-args.ts';
import type { JobArgs } from './info.ts';

/** TriggerSavepointRequest.terminate: what happens to the job once its savepoint is complete. */
export const SavepointTermination = {
  /** `weir savepoint`: the job goes on. */
  NONE: '',
  /** `weir cancel -s`. */
  CANCEL: 'CANCEL',
  /** `weir stop`: sources end, sinks commit the savepoint's output, the job FINISHES. */
  STOP: 'STOP',
} as const;

export interface SavepointArgs extends JobArgs {
  /** Where the savepoint goes; unset: the JobManager's state.savepoints.dir. */
  readonly targetDirectory?: string;
}

export interface DisposeSavepointArgs extends ClientArgs {
  readonly savepointPath: string;
}

/** `weir savepoint <jobId> [targetDirectory]`: a savepoint of a running job, which goes on. */
export async function savepointCommand(args: SavepointArgs, context: CliContext): Promise<void> {
  const savepoint = await withJobClient(args, context, async (client) => {
    const progress = Progress.start(context, `Triggering savepoint for job ${args.jobId}…`, `the savepoint of job ${args.jobId}`, checkpointDetail(client, args.jobId, 'SAVEPOINT'));
    try {
      return await client.triggerSavepoint({ jobId: args.jobId, targetDirectory: args.targetDirectory ?? '', terminate: SavepointTermination.NONE });
    } finally {
      progress.stop();
    }
  });
  for (const line of savepointCompleted(savepoint)) context.out(line);
}

/** `weir savepoint -d <savepointPath>`: deletes a savepoint; the JobManager checks that it is one first. */
export async function disposeSavepointCommand(args: DisposeSavepointArgs, context: CliContext): Promise<void> {
  await withJobClient(args, context, async (client) => {
    const progress = Progress.start(context, `Disposing savepoint ${args.savepointPath}…`, `the disposal of ${args.savepointPath}`);
    try {
      await client.disposeSavepoint(args.savepointPath);
    } finally {
      progress.stop();
    }
  });
  context.out(`Savepoint '${args.savepointPath}' disposed.`);
}

/** The lines every savepoint-taking command ends with: Flink's "Savepoint completed" line, then how to use it. */
export function savepointCompleted(savepoint: TriggerSavepointResponse__Output): string[] {
  return [
    `Savepoint completed. Path: ${savepoint.savepointPath}`,
    `Checkpoint ID: ${savepoint.checkpointId}. Start a job from it with \`weir run -s ${savepoint.savepointPath} <job>\`.`,
  ];
}
