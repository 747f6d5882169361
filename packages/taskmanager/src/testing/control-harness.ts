import { expect, vi } from 'vitest';
import { defaultConfig, type WeirConfig } from '@weir/common';
import { ManualClock, recordingLogger } from '@weir/common/testing';
import { TaskManager } from '../task-manager.ts';
import { FakeJobManager } from './fake-jobmanager.ts';
import { FakeRegistry } from './fake-registry.ts';
import { fakeTaskFactory } from './fake-task.ts';
import { oneVertexJob } from './jobs.ts';

/** The ManualClock's start: heartbeat timestamps in tests are offsets from it. */
export const START = 1_000_000;

export type ConfigOverrides = Partial<Record<keyof WeirConfig, string | number>>;

export function configFor(jobManagerPort: number, overrides: ConfigOverrides = {}): WeirConfig {
  return {
    ...defaultConfig(),
    'jobmanager.rpc.address': '127.0.0.1',
    'jobmanager.rpc.port': jobManagerPort,
    'taskmanager.bind-host': '127.0.0.1',
    'taskmanager.numberOfTaskSlots': 3,
    'heartbeat.interval': 10_000,
    'heartbeat.timeout': 30_000,
    ...overrides,
  } as WeirConfig;
}

/**
 * A TaskManager with task doubles, connected to a FakeJobManager over real gRPC, on a
 * ManualClock. Everything it starts is stopped by `cleanups` (run them in afterEach).
 */
export async function startTaskManagerWithFakes(
  cleanups: (() => unknown)[],
  options: { jobManagerPort?: number; jobManager?: boolean; config?: ConfigOverrides; prepareForJobs?: () => void } = {},
) {
  const jobManager = new FakeJobManager();
  if (options.jobManager !== false) {
    await jobManager.start(options.jobManagerPort);
    cleanups.push(() => jobManager.stop());
  }
  const clock = new ManualClock(START);
  const { logger, entries: logs } = recordingLogger();
  const factory = fakeTaskFactory();
  const registry = new FakeRegistry();
  const taskManager = await TaskManager.start(configFor(options.jobManagerPort ?? jobManager.port, options.config), {
    logger,
    clock,
    partitions: registry,
    createTask: factory.createTask,
    createJobLoader: (bundles) => async (message) => {
      await bundles.get(message.bundleHash);
      return oneVertexJob();
    },
    prepareForJobs: options.prepareForJobs,
  });
  cleanups.push(() => taskManager.close());
  return { jobManager, clock, logs, factory, registry, taskManager };
}

/** Waits for the latest stream's register and answers it with `registered`. */
export async function register(jobManager: FakeJobManager, taskManager: TaskManager, intervalMs: number, timeoutMs: number): Promise<void> {
  await vi.waitFor(() => expect(jobManager.streams.at(-1)?.registers).toHaveLength(1));
  jobManager.latest.send({
    registered: { taskManagerId: taskManager.taskManagerId, heartbeatIntervalMs: intervalMs, heartbeatTimeoutMs: timeoutMs },
  });
  await vi.waitFor(() => expect(taskManager.connectionState).toBe('registered'));
}
