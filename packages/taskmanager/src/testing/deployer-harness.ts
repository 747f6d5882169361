import { defaultConfig, type Logger } from '@weir/common';
import { ManualClock, silentLogger } from '@weir/common/testing';
import type { AcknowledgeCheckpoint, AwaitingFinalCheckpoint, DeclineCheckpoint, OperatorEvent, TaskStatusUpdate } from '@weir/rpc';
import type { RemoteConnector } from '@weir/runtime';
import { s3SettingsFromConfig, StoragePool } from '@weir/storage';
import type { TaskReporter } from '../control/context.ts';
import { Deployer } from '../deploy/deployer.ts';
import type { JobLoader } from '../deploy/types.ts';
import { FakeRegistry } from './fake-registry.ts';
import { fakeTaskFactory } from './fake-task.ts';
import { oneVertexJob } from './jobs.ts';

const remote: RemoteConnector = {
  connect: () => {
    throw new Error('not used');
  },
};

export interface DeployerHarnessOptions {
  readonly loadJob?: JobLoader;
  readonly logger?: Logger;
}

/**
 * A Deployer over fake tasks and a fake partition registry, and the reporter its tasks answer
 * on, recording every status, acknowledgement, decline and operator event. `close` releases
 * the storage pool (call it in afterEach).
 */
export function deployerHarness(options: DeployerHarnessOptions = {}) {
  const registry = new FakeRegistry();
  const factory = fakeTaskFactory();
  const storages = new StoragePool(s3SettingsFromConfig(defaultConfig()));
  const deployer = new Deployer({
    network: { taskManagerId: 'tm-1', partitions: registry, remote },
    loadJob: options.loadJob ?? (async () => oneVertexJob()),
    createTask: factory.createTask,
    localStateDir: '/tmp/weir-test-local-state',
    storages,
    logger: options.logger ?? silentLogger(),
    clock: new ManualClock(),
  });
  const updates: TaskStatusUpdate[] = [];
  const acks: AcknowledgeCheckpoint[] = [];
  const declines: DeclineCheckpoint[] = [];
  const awaitingFinal: AwaitingFinalCheckpoint[] = [];
  const operatorEvents: OperatorEvent[] = [];
  const report: TaskReporter = {
    status: (update) => updates.push(update),
    acknowledgeCheckpoint: (ack) => acks.push(ack),
    declineCheckpoint: (decline) => declines.push(decline),
    awaitingFinalCheckpoint: (message) => awaitingFinal.push(message),
    operatorEvent: (event) => operatorEvents.push(event),
  };
  const states = () => updates.map((update) => update.state);
  return { registry, factory, deployer, updates, acks, declines, awaitingFinal, operatorEvents, states, report, close: () => storages.close() };
}
