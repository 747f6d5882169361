import { createLogger, loadConfig, WeirError } from '@weir/common';
import { LocalCluster } from '../cluster/local-cluster.ts';
import type { ConfigArgs } from '../config-args.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';
import { waitForStopSignal } from '../signals.ts';
import { resolveUserPath, userCwd } from '../user-cwd.ts';

export interface ClusterStartArgs extends ConfigArgs {
  readonly taskManagers: number;
  readonly slots: number;
  readonly dir: string;
}

/** `weir cluster start`: a JobManager and N TaskManagers in the foreground until Ctrl-C or SIGTERM. */
export async function clusterStartCommand(args: ClusterStartArgs, context: CliContext): Promise<void> {
  const logger = createLogger('cluster');
  const stopSignal = waitForStopSignal(() => process.exit(130));
  const configFile = args.config ?? context.env.WEIR_CONFIG;
  const width = `taskmanager-${args.taskManagers}`.length;
  const cluster = await LocalCluster.start({
    taskManagers: args.taskManagers,
    slots: args.slots,
    dir: resolveUserPath(args.dir, context.env),
    configFile: configFile === undefined ? undefined : resolveUserPath(configFile, context.env),
    dynamic: args.dynamic,
    env: { ...context.env },
    cwd: userCwd(context.env),
    clock: context.clock,
    logger,
    onLine: (name, stream, line) => (stream === 'stdout' ? context.out : context.err)(`${name.padEnd(width)} | ${line}`),
  });
  // `weir run` in another shell reads the same config file and environment, but not this command's -D.
  const seen = loadConfig({ file: configFile === undefined ? undefined : resolveUserPath(configFile, context.env), env: context.env, dynamic: {} });
  const address = cluster.jobManagerAddress === `${seen['jobmanager.rpc.address']}:${seen['jobmanager.rpc.port']}` ? '' : ` -m ${cluster.jobManagerAddress}`;
  context.out(
    `JobManager is up at ${cluster.jobManagerAddress} with ${args.taskManagers} TaskManager(s) of ${args.slots} slot(s), all registered; ` +
      `submit a job with \`pnpm weir run${address} <job.ts>\`; Ctrl-C stops the cluster`,
  );
  context.out(`Web dashboard: ${cluster.dashboardUrl}`);
  const lost = await Promise.race([stopSignal.then(() => undefined), cluster.jobManagerLost]);
  await cluster.stop();
  if (lost !== undefined) throw new WeirError(CliErrorCode.CLUSTER_PROCESS_FAILED, `${lost}; stopped the cluster`);
}
