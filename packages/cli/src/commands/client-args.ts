import type { WeirConfig } from '@weir/common';
import { haSettingsFromConfig, lookUpLeader } from '@weir/ha';
import { clientCredentials } from '../client/client-credentials.ts';
import { JobClient } from '../client/job-client.ts';
import { configuredJobManagerAddress, loadCliConfig, type ConfigArgs } from '../config-args.ts';
import type { CliContext } from '../context.ts';

/** Options of the commands that talk to a JobManager. */
export interface ClientArgs extends ConfigArgs {
  /** `-m host:port`; else the leader etcd names (high-availability.type: etcd), else the config's jobmanager.rpc.address and port. */
  readonly jobManager?: string;
  /** `--token-file`: the token to authenticate with; else $WEIR_TOKEN. */
  readonly tokenFile?: string;
}

/** How long a client command waits for etcd to name a leader (one may be taking over). */
const LEADER_LOOKUP_TIMEOUT_MS = 10_000;

/** Without -m: the leader etcd names with high-availability.type: etcd, else jobmanager.rpc.address:port. */
async function jobManagerAddress(config: WeirConfig): Promise<string> {
  const ha = haSettingsFromConfig(config, 'client');
  if (ha === undefined) return configuredJobManagerAddress(config);
  return (await lookUpLeader(ha, LEADER_LOOKUP_TIMEOUT_MS)).address;
}

/** Runs `use` with a client for the JobManager the args name, and closes it after. */
export async function withJobClient<T>(
  args: ClientArgs,
  context: CliContext,
  use: (client: JobClient, config: WeirConfig) => Promise<T>,
): Promise<T> {
  const config = loadCliConfig(args, context.env);
  const client = JobClient.connect(args.jobManager ?? (await jobManagerAddress(config)), clientCredentials(config, args.tokenFile, context.env));
  try {
    return await use(client, config);
  } finally {
    client.close();
  }
}
