import { createLogger, type Logger, type WeirConfig } from '@weir/common';
import { grpc } from '@weir/rpc';
import { loadCliConfig, type ConfigArgs } from '../config-args.ts';
import type { CliContext } from '../context.ts';
import { waitForStopSignal } from '../signals.ts';

type Start = (config: WeirConfig, options: { logger: Logger }) => Promise<{ close(): Promise<void> }>;

/** `weir jobmanager` / `weir taskmanager`: start with the config, run until SIGTERM or SIGINT, then close. */
async function serve(role: 'jobmanager' | 'taskmanager', start: () => Promise<Start>, args: ConfigArgs, context: CliContext): Promise<void> {
  const config = loadCliConfig(args, context.env);
  const logger = createLogger(role);
  // grpc-js prints its own line for a failed bind; the WeirError it becomes already says it all.
  if (context.env.GRPC_VERBOSITY === undefined) grpc.setLogVerbosity(grpc.logVerbosity.NONE);
  const handle = await (await start())(config, { logger });
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
  return serve('taskmanager', async () => (await import('@weir/taskmanager')).startTaskManager, args, context);
}
