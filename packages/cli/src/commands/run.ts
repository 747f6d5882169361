import { JobStatus, WeirError } from '@weir/common';
import { bundleJob } from '../bundle.ts';
import type { JobClient } from '../client/job-client.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';
import { formatTime } from '../format/time.ts';
import { checkpointDetail } from '../progress/details.ts';
import { Progress } from '../progress/progress.ts';
import { resolveUserPath } from '../user-cwd.ts';
import { withJobClient, type ClientArgs } from './client-args.ts';

export interface RunArgs extends ClientArgs {
  readonly job: string;
  readonly args: readonly string[];
  /** `-p`: the job's default parallelism; unset keeps the cluster's. */
  readonly parallelism?: number;
  readonly detached: boolean;
  /** `-s <savepointPath> [-n]`: start from a savepoint or retained checkpoint; unset starts without state. */
  readonly restore?: SavepointRestore;
}

export interface SavepointRestore {
  /** A directory holding `_metadata`, as the JobManager reads it (local path, file:// or s3:// URL). */
  readonly savepointPath: string;
  /** `-n`: skip state of operators the job no longer has instead of failing the submission. */
  readonly allowNonRestoredState: boolean;
}

/** `weir run`: bundle, submit, and unless detached follow the job until it ends. */
export async function runCommand(args: RunArgs, context: CliContext): Promise<void> {
  const bundle = await bundleJob(resolveUserPath(args.job, context.env));
  await withJobClient(args, context, async (client) => {
    const { jobId } = await client.submit({
      bundle: Buffer.from(bundle.code),
      entryName: bundle.entryName,
      args: [...args.args],
      parallelism: args.parallelism ?? 0,
      savepointPath: args.restore?.savepointPath ?? '',
      allowNonRestoredState: args.restore?.allowNonRestoredState ?? false,
    });
    context.out(`Job has been submitted with JobID ${jobId}`);
    if (args.restore !== undefined) context.out(`It starts from the state of ${args.restore.savepointPath}`);
    if (!args.detached) await followJob(client, jobId, context);
  });
}

/**
 * Prints every status change; on a terminal a status line below shows the time since the
 * submission and the checkpoint in progress with its acknowledgements. Resolves on FINISHED,
 * throws on FAILED, CANCELED or a lost stream.
 */
export async function followJob(client: JobClient, jobId: string, context: CliContext): Promise<void> {
  const progress = Progress.start(context, undefined, `job ${jobId} to end`, checkpointDetail(client, jobId));
  try {
    await follow(client, jobId, context, progress);
  } finally {
    progress.stop();
  }
}

async function follow(client: JobClient, jobId: string, context: CliContext, progress: Progress): Promise<void> {
  let last: string | undefined;
  for await (const update of client.watch(jobId)) {
    if (update.status !== last) {
      context.out(`${formatTime(context.clock.now())}  Job ${jobId} is ${update.status}`);
      progress.waitingFor(`job ${jobId} to end (${update.status})`, checkpointDetail(client, jobId));
    }
    last = update.status;
    if (update.status === JobStatus.FINISHED) {
      context.out(`Job ${jobId} has finished.`);
      return;
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
