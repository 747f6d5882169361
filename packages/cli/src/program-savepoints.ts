import type { Command } from 'commander';
import { isJobId } from '@weir/common';
import type { DisposeSavepointArgs, SavepointArgs } from './commands/savepoint.ts';
import type { JobArgs } from './commands/info.ts';
import type { StopArgs } from './commands/stop.ts';
import type { CheckpointArgs } from './commands/trigger-checkpoint.ts';
import { clientArgs, missingJobId, withClient, type ClientOptions } from './program-options.ts';

/** The savepoint commands' actions, part of CliActions. */
export interface SavepointActions {
  /** `weir cancel`: cancels a job. */
  cancel(args: JobArgs): Promise<void>;
  /** `weir cancel -s`: takes a savepoint, then cancels (deprecated in Flink for `stop`). */
  cancelWithSavepoint(args: SavepointArgs): Promise<void>;
  /** `weir savepoint`: takes a savepoint of a running job. */
  savepoint(args: SavepointArgs): Promise<void>;
  /** `weir checkpoint`: takes a checkpoint now (Flink 1.19's `flink checkpoint`). */
  checkpoint(args: CheckpointArgs): Promise<void>;
  /** `weir savepoint -d`: deletes a savepoint. */
  disposeSavepoint(args: DisposeSavepointArgs): Promise<void>;
  /** `weir stop`: stops a job with a savepoint (Flink's stop-with-savepoint). */
  stop(args: StopArgs): Promise<void>;
}

const DEFAULT_DIR = 'without one, the JobManager uses state.savepoints.dir and fails if that is not set';

/** `weir savepoint`, `weir checkpoint`, `weir stop` and `weir cancel` (which takes a savepoint with -s), in Flink's shapes. */
export function addSavepointCommands(program: Command, actions: SavepointActions): void {
  withClient(
    program
      .command('checkpoint')
      .description("take a checkpoint of a running job now (the job must enable checkpointing); waits for it and prints its ID and path")
      .argument('<jobId>')
      .option('--full', "upload every state file, whatever state.backend.incremental says (Flink's -full)", false),
  ).action((jobId: string, options: ClientOptions & { full: boolean }) => actions.checkpoint({ ...clientArgs(options), jobId, full: options.full }));

  withClient(
    program
      .command('savepoint')
      .description('take a savepoint of a running job, which goes on; or with -d, dispose of a savepoint')
      .argument('[jobId]', 'the job to take a savepoint of')
      .argument('[targetDirectory]', `directory (local path, file:// or s3:// URL) to write the savepoint under; ${DEFAULT_DIR}`)
      .option('-d, --dispose <savepointPath>', 'delete this savepoint (the directory holding its _metadata) instead')
      .addHelpText(
        'after',
        [
          '',
          'Examples:',
          '  weir savepoint <jobId> /data/savepoints   prints "Savepoint completed. Path: /data/savepoints/savepoint-<jobId6>-<rand>"',
          '  weir savepoint -d /data/savepoints/savepoint-a1b2c3-5f9e0d7a',
          'Start a job from the savepoint with `weir run -s <path> [-n] job.ts`.',
        ].join('\n'),
      ),
  ).action((jobId: string | undefined, targetDirectory: string | undefined, options: ClientOptions & { dispose?: string }, command: Command) => {
    if (options.dispose !== undefined) {
      if (jobId !== undefined) {
        command.error(`error: -d disposes a savepoint and takes no job ID; give either \`weir savepoint <jobId> [targetDirectory]\` or \`weir savepoint -d <savepointPath>\``, {
          code: 'commander.conflictingOption',
        });
      }
      return actions.disposeSavepoint({ ...clientArgs(options), savepointPath: options.dispose });
    }
    if (jobId === undefined) missingJobId(command);
    return actions.savepoint({ ...clientArgs(options), jobId, targetDirectory });
  });

  withClient(
    program
      .command('stop')
      .description('stop a job gracefully with a savepoint: its sources end, its sinks commit, it FINISHES; waits for that and prints the savepoint path')
      .argument('<jobId>')
      .option('-p, --savepointPath <dir>', `directory to write the savepoint under; ${DEFAULT_DIR}`)
      .option('-d, --drain', 'end the input first so operators flush everything (timers, windows) before the savepoint; for a final stop, not an upgrade', false)
      .addHelpText('after', '\nStart the changed job from the printed path with `weir run -s <path> [-n] job.ts`: it continues exactly where this one stopped.'),
  ).action((jobId: string, options: ClientOptions & { savepointPath?: string; drain: boolean }) =>
    actions.stop({ ...clientArgs(options), jobId, savepointPath: options.savepointPath, drain: options.drain }),
  );

  withClient(
    program
      .command('cancel')
      .description('cancel a job; with -s, take a savepoint first and wait until the job is CANCELED')
      .argument('[jobId]', 'the job (32 hex digits)')
      .option('-s, --withSavepoint [targetDirectory]', `take a savepoint under this directory before cancelling; ${DEFAULT_DIR}`)
      .addHelpText(
        'after',
        [
          '',
          'Examples:',
          '  weir cancel <jobId>',
          '  weir cancel -s /data/savepoints <jobId>',
          '  weir cancel -s <jobId>                   savepoint into state.savepoints.dir',
          'Prefer `weir stop`: it ends the job gracefully, so its sinks commit everything up to the savepoint.',
        ].join('\n'),
      ),
  ).action((jobId: string | undefined, options: ClientOptions & { withSavepoint?: string | true }, command: Command) => {
    const withSavepoint = options.withSavepoint;
    if (withSavepoint === undefined) {
      if (jobId === undefined) missingJobId(command);
      return actions.cancel({ ...clientArgs(options), jobId });
    }
    // `cancel -s <jobId>`: with the directory left out, the parser handed the job ID to -s.
    if (jobId === undefined && withSavepoint !== true && isJobId(withSavepoint)) {
      return actions.cancelWithSavepoint({ ...clientArgs(options), jobId: withSavepoint, targetDirectory: undefined });
    }
    if (jobId === undefined) missingJobId(command);
    return actions.cancelWithSavepoint({ ...clientArgs(options), jobId, targetDirectory: withSavepoint === true ? undefined : withSavepoint });
  });
}
