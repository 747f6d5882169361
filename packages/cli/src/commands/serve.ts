import { createLogger, type Logger, type WeirConfig } from '@weir/common';
import { grpc } from '@weir/rpc';
import { loadCliConfig, type ConfigArgs } from '../config-args.ts';
import type { CliContext } from '../context.ts';
import { waitForStopSignal } from '../signals.ts';

type Start = (config: WeirConfig, options: { logger: Logger }) => Promise<{ close(): Promise<void> }>;
/** Loads the role's package and gives its start function; it may start something first, with the config and logger. */
type LoadStart = (config: WeirConfig, logger: Logger) => Promise<Start>;

/** `weir jobmanager` / `weir taskmanager`: start with the config, run until SIGTERM or SIGINT, then close. */
async function serve(role: 'jobmanager' | 'taskmanager', loadStart: LoadStart, args: ConfigArgs, context: CliContext): Promise<void> {
  const config = loadCliConfig(args, context.env);
  const logger = createLogger(role);
  // grpc-js prints its own line for a failed bind; the WeirError it becomes already says it all.
  if (context.env.GRPC_VERBOSITY === undefined) grpc.setLogVerbosity(grpc.logVerbosity.NONE);
  const start = await loadStart(config, logger);
  const handle = await start(config, { logger });
  const signal = await waitForStopSignal((again) => {
    logger.warn({ signal: again }, `${role} stopping forcibly on a second signal`);
    process.exit(130);
  });
  logger.info({ signal }, `${role} stopping`);
  await handle.close();
}

export function jobManagerCommand(args: ConfigArgs, context: CliContext): Promise<void> {
  return serve('jobmanager', async () => (await import('@weir/jobmanager')).startJobManager, args, context);
}

export function taskManagerCommand(args: ConfigArgs, context: CliContext): Promise<void> {
  return serve(
    'taskmanager',
    async (config, logger) => {
      // The liveness thread takes some 70 ms to boot: it does so while the TaskManager's modules load, instead of
      // after, when the TaskManager waits for it to register (its port goes into the registration).
      const { startLivenessEndpoint } = await import('@weir/taskmanager/liveness');
      // With internal TLS it serves HTTPS for the JobManager's node certificate only.
      const { ClusterSecurity } = await import('@weir/security');
      const tls = new ClusterSecurity(config, logger).internalTls;
      const liveness = startLivenessEndpoint(config['taskmanager.bind-host'], config['taskmanager.liveness.port'], logger.child({ scope: 'liveness' }), tls);
      // TaskManager.start awaits it (a port in use fails the start with BIND_FAILED); until then it is not unhandled.
      liveness.catch(() => undefined);
      const { startTaskManager } = await import('@weir/taskmanager');
      return (startConfig, options) => startTaskManager(startConfig, { ...options, liveness });
    },
    args,
    context,
  );
}
