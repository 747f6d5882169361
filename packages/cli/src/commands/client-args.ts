import type { WeirConfig } from '@weir/common';
import { JobClient } from '../client/job-client.ts';
import { configuredJobManagerAddress, loadCliConfig, type ConfigArgs } from '../config-args.ts';
import type { CliContext } from '../context.ts';

/** Options of the commands that talk to a JobManager. */
export interface ClientArgs extends ConfigArgs {
  /** `-m host:port`; else the config's jobmanager.rpc.address and port. */
  readonly jobManager?: string;
}

/** Runs `use` with a client for the JobManager the args name, and closes it after. */
export async function withJobClient<T>(
  args: ClientArgs,
  context: CliContext,
  use: (client: JobClient, config: WeirConfig) => Promise<T>,
): Promise<T> {
  const config = loadCliConfig(args, context.env);
  const client = JobClient.connect(args.jobManager ?? configuredJobManagerAddress(config));
  try {
    return await use(client, config);
  } finally {
    client.close();
  }
}
