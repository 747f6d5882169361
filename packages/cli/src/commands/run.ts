import { bundleJob } from '../bundle.ts';
import type { CliContext } from '../context.ts';
import { resolveUserPath } from '../user-cwd.ts';
import { withJobClient, type ClientArgs } from './client-args.ts';
import { followJob } from './follow-job.ts';
import { splitRunProperties } from './run-properties.ts';
import { typecheckJob } from './typecheck.ts';

export interface RunArgs extends ClientArgs {
  readonly job: string;
  readonly args: readonly string[];
  /** `-p`: the job's default parallelism; unset keeps the cluster's. */
  readonly parallelism?: number;
  readonly detached: boolean;
  /** `-s <savepointPath> [-n]`: start from a savepoint or retained checkpoint; unset starts without state. */
  readonly restore?: SavepointRestore;
  /** `--typecheck`: type-check the job's project before bundling it. */
  readonly typecheck?: boolean;
}

export interface SavepointRestore {
  /** A directory holding `_metadata`, as the JobManager reads it (local path, file:// or s3:// URL). */
  readonly savepointPath: string;
  /** `-n`: skip state of operators the job no longer has instead of failing the submission. */
  readonly allowNonRestoredState: boolean;
}

/** `weir run`: bundle, submit, and unless detached follow the job until it ends. */
export async function runCommand(args: RunArgs, context: CliContext): Promise<void> {
  const properties = splitRunProperties(args.dynamic);
  const jobFile = resolveUserPath(args.job, context.env);
  if (args.typecheck === true) typecheckJob(jobFile, resolveUserPath('.', context.env));
  const bundle = await bundleJob(jobFile);
  await withJobClient({ ...args, dynamic: properties.client }, context, async (client) => {
    const { jobId } = await client.submit({
      bundle: Buffer.from(bundle.code),
      entryName: bundle.entryName,
      args: [...args.args],
      parallelism: args.parallelism ?? 0,
      savepointPath: args.restore?.savepointPath ?? '',
      allowNonRestoredState: args.restore?.allowNonRestoredState ?? false,
      configuration: properties.job,
    });
    context.out(`Job has been submitted with JobID ${jobId}`);
    if (args.restore !== undefined) context.out(`It starts from the state of ${args.restore.savepointPath}`);
    if (!args.detached) await followJob(client, jobId, context);
  });
}
