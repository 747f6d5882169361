import { createLogger, systemClock, type Clock, type Logger, type WeirConfig } from '@weir/common';
import { PartitionRegistry, Task } from '@weir/runtime';
import { bundleJobLoader, preloadJobModules } from './deploy/job-loader.ts';
import type { LivenessEndpoint } from './liveness/liveness-endpoint.ts';
import { TaskManager, type TaskManagerHandle } from './task-manager.ts';

/** Starts a TaskManager process's services: what `weir taskmanager` runs. */
export async function startTaskManager(
  config: WeirConfig,
  options: { logger?: Logger; clock?: Clock; liveness?: Promise<LivenessEndpoint> } = {},
): Promise<TaskManagerHandle> {
  const logger = options.logger ?? createLogger('taskmanager');
  const clock = options.clock ?? systemClock;
  return TaskManager.start(config, {
    logger,
    clock,
    partitions: new PartitionRegistry({ clock, logger: logger.child({ scope: 'partitions' }) }),
    createTask: (taskOptions) => new Task(taskOptions),
    createJobLoader: (bundles) =>
      bundleJobLoader(bundles, { systemExit: config['cluster.intercept-user-system-exit'], warn: (message) => logger.warn(message) }),
    prepareForJobs: preloadJobModules,
    liveness: options.liveness,
  });
}
