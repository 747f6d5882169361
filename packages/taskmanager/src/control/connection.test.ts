import { createHash } from 'node:crypto';
import { createServer as createNetServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, recordingLogger } from '@weir/common/testing';
import { TaskManager } from '../task-manager.ts';
import { configFor, register, START, startTaskManagerWithFakes } from '../testing/control-harness.ts';
import { FakeJobManager } from '../testing/fake-jobmanager.ts';
import { FakeRegistry } from '../testing/fake-registry.ts';
import { fakeTaskFactory } from '../testing/fake-task.ts';
import { deployMessage, oneVertexJob } from '../testing/jobs.ts';


const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const startAll = (options: Parameters<typeof startTaskManagerWithFakes>[1] = {}) => startTaskManagerWithFakes(cleanups, options);

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('control stream', () => {
  it('registers with its ID, data address, slots, pid and liveness endpoint', async () => {
    const { jobManager, taskManager } = await startAll();
    await vi.waitFor(() => expect(jobManager.streams[0]?.registers).toHaveLength(1));

    const [, port] = /^localhost:(\d+)$/.exec(taskManager.dataAddress)!;
    expect(taskManager.taskManagerId).toMatch(new RegExp(`^localhost:${port}-[0-9a-f]{6}$`));
    const register = jobManager.streams[0]!.registers[0]!;
    const [, livenessPort] = /^localhost:(\d+)$/.exec(register.livenessAddress)!;
    expect(register).toEqual({
      taskManagerId: taskManager.taskManagerId,
      dataAddress: taskManager.dataAddress,
      slots: 3,
      pid: process.pid,
      leaderEpoch: 0,
      livenessAddress: `localhost:${livenessPort}`,
    });
    expect((await fetch(`http://127.0.0.1:${livenessPort}/liveness`)).ok).toBe(true);
  });

  it('refuses a message of an older leader epoch than one it saw, and leaves that JobManager', async () => {
    const { jobManager, taskManager, factory, logs } = await startAll();
    await register(jobManager, taskManager, 1_000, 3_000);
    jobManager.latest.send({ heartbeat: { timestampMs: 1 }, leaderEpoch: 7 });
    jobManager.latest.send({ deploy: deployMessage(), leaderEpoch: 5 });
    // It registers again at once, with whoever leads now.
    await vi.waitFor(() => expect(jobManager.streams).toHaveLength(2));
    expect(factory.tasks).toEqual([]);
    const refused = logs.find((entry) => entry.message === 'refused a message of a deposed JobManager leader');
    expect(refused?.fields).toMatchObject({ kind: 'deploy', leaderEpoch: 5, currentEpoch: 7 });
  });

  it('prepares for jobs once registered, not before', async () => {
    const prepareForJobs = vi.fn();
    const { jobManager, taskManager } = await startAll({ prepareForJobs });
    await vi.waitFor(() => expect(jobManager.streams[0]?.registers).toHaveLength(1));
    expect(prepareForJobs).not.toHaveBeenCalled();
    await register(jobManager, taskManager, 1_000, 3_000);
    expect(prepareForJobs).toHaveBeenCalledTimes(1);
  });

  it('uses taskmanager.resource-id and taskmanager.host when set', async () => {
    const { jobManager, taskManager } = await startAll({ config: { 'taskmanager.resource-id': 'tm-7', 'taskmanager.host': 'worker-3' } });
    await vi.waitFor(() => expect(jobManager.streams[0]?.registers).toHaveLength(1));
    expect(taskManager.taskManagerId).toBe('tm-7');
    expect(jobManager.streams[0]!.registers[0]!.dataAddress).toMatch(/^worker-3:\d+$/);
  });

  it('heartbeats at the interval the JobManager gives, and lives as long as the JobManager is heard', async () => {
    const { jobManager, clock, taskManager, factory } = await startAll();
    await register(jobManager, taskManager, 1_000, 3_000);

    clock.advance(2_000);
    await vi.waitFor(() => expect(jobManager.latest.heartbeats).toHaveLength(2));
    expect(jobManager.latest.heartbeats).toEqual([{ timestampMs: START + 1_000 }, { timestampMs: START + 2_000 }]);

    // A message from the JobManager at +2000 ms pushes the timeout to +5000 ms; the deploy shows it arrived.
    jobManager.latest.send({ heartbeat: { timestampMs: 1 } });
    jobManager.latest.send({ deploy: deployMessage() });
    await vi.waitFor(() => expect(factory.tasks).toHaveLength(1));
    clock.advance(2_999);
    expect(taskManager.connectionState).toBe('registered');
    await vi.waitFor(() => expect(jobManager.latest.heartbeats).toHaveLength(4));
  });

  it('cancels all tasks and reconnects with backoff when the JobManager falls silent', async () => {
    const { jobManager, clock, taskManager, factory, logs } = await startAll();
    await register(jobManager, taskManager, 1_000, 3_000);
    jobManager.latest.send({ deploy: deployMessage({ subtask: 0 }) });
    jobManager.latest.send({ deploy: deployMessage({ subtask: 1 }) });
    await vi.waitFor(() => expect(factory.tasks.filter((task) => task.started)).toHaveLength(2));
    const firstStream = jobManager.latest;

    clock.advance(2_999);
    expect(taskManager.connectionState).toBe('registered');
    clock.advance(1);
    expect(taskManager.connectionState).toBe('backoff');
    expect(factory.tasks.map((task) => task.cancelled)).toEqual([true, true]);
    expect(taskManager.taskCount).toBe(0);
    await vi.waitFor(() => expect(firstStream.cancelled).toBe(true));
    const lost = logs.find((entry) => entry.message === 'lost the JobManager, cancelling all tasks');
    expect(lost?.level).toBe('warn');
    expect(lost?.fields.reason).toBe(
      `no heartbeat from the JobManager at 127.0.0.1:${jobManager.port} for 3000 ms [JOBMANAGER_UNREACHABLE]`,
    );

    clock.advance(499);
    expect(taskManager.connectionState).toBe('backoff');
    clock.advance(1);
    expect(taskManager.connectionState).toBe('connecting');
    await vi.waitFor(() => expect(jobManager.streams).toHaveLength(2));
    await vi.waitFor(() => expect(jobManager.latest.registers).toHaveLength(1));
    expect(jobManager.latest.registers[0]!.taskManagerId).toBe(taskManager.taskManagerId);
  });

  it('cancels all tasks when the control stream breaks', async () => {
    const { jobManager, taskManager, factory } = await startAll();
    await register(jobManager, taskManager, 1_000, 3_000);
    jobManager.latest.send({ deploy: deployMessage() });
    await vi.waitFor(() => expect(factory.tasks.filter((task) => task.started)).toHaveLength(1));

    jobManager.latest.end();
    await vi.waitFor(() => expect(taskManager.connectionState).toBe('backoff'));
    expect(factory.tasks[0]!.cancelled).toBe(true);
  });

  it('keeps trying a JobManager that is not up yet, one info line per attempt, doubling the delay', async () => {
    const port = await freePort();
    const { clock, taskManager, logs } = await startAll({ jobManagerPort: port, jobManager: false });
    const retries = () => logs.filter((entry) => entry.message === 'JobManager not reachable, retrying');

    await vi.waitFor(() => expect(taskManager.connectionState).toBe('backoff'));
    clock.advance(500);
    await vi.waitFor(() => expect(retries()).toHaveLength(2));
    expect(taskManager.connectionState).toBe('backoff');
    clock.advance(999);
    expect(taskManager.connectionState).toBe('backoff');
    clock.advance(1);
    await vi.waitFor(() => expect(retries()).toHaveLength(3));
    expect(retries().map((entry) => [entry.level, entry.fields.retryInMs])).toEqual([
      ['info', 500],
      ['info', 1_000],
      ['info', 2_000],
    ]);
    expect(retries()[0]!.fields.reason).toMatch(new RegExp(`^cannot reach the peer at 127\\.0\\.0\\.1:${port}: .* \\[UNAVAILABLE\\]$`));
    expect(retries().some((entry) => 'err' in entry.fields)).toBe(false);

    const jobManager = await new FakeJobManager().start(port);
    cleanups.push(() => jobManager.stop());
    await vi.waitFor(
      () => {
        if (taskManager.connectionState === 'backoff') clock.advance(5_000);
        expect(jobManager.streams.at(-1)?.registers).toHaveLength(1);
      },
      { timeout: 15_000, interval: 50 },
    );
  });

  it('retries when the JobManager answers register with something else', async () => {
    const { jobManager, taskManager, logs } = await startAll();
    await vi.waitFor(() => expect(jobManager.streams[0]?.registers).toHaveLength(1));
    jobManager.latest.send({ heartbeat: { timestampMs: 5 } });
    await vi.waitFor(() => expect(taskManager.connectionState).toBe('backoff'));
    expect(logs.find((entry) => entry.message === 'JobManager not reachable, retrying')?.fields.reason).toBe(
      `the JobManager at 127.0.0.1:${jobManager.port} answered register with heartbeat; it must answer registered first [CONTROL_PROTOCOL_VIOLATION]`,
    );
  });

  it('retries when the JobManager does not answer register within heartbeat.timeout', async () => {
    const { jobManager, clock, taskManager } = await startAll({ config: { 'heartbeat.timeout': 4_000 } });
    await vi.waitFor(() => expect(jobManager.streams[0]?.registers).toHaveLength(1));
    clock.advance(3_999);
    expect(taskManager.connectionState).toBe('connecting');
    clock.advance(1);
    expect(taskManager.connectionState).toBe('backoff');
  });

  it('reports a deploy with an unknown bundle hash as FAILED with the reason', async () => {
    const { jobManager, taskManager, factory } = await startAll();
    await register(jobManager, taskManager, 1_000, 3_000);
    const hash = 'ab'.repeat(32);
    jobManager.latest.send({ deploy: deployMessage({ bundleHash: hash }) });
    await vi.waitFor(() => expect(jobManager.latest.statuses).toHaveLength(2));
    expect(jobManager.latest.statuses.map((status) => [status.state, status.failureCode])).toEqual([
      ['DEPLOYING', ''],
      ['FAILED', 'BUNDLE_FETCH_FAILED'],
    ]);
    expect(jobManager.latest.statuses[1]!.failureCause).toBe(
      `deploying vertex-a (1/2) of job job-1 attempt 0 failed: cannot fetch job bundle ${hash} from the JobManager: no job bundle with SHA-256 ${hash} [BUNDLE_NOT_FOUND]`,
    );
    expect(factory.tasks).toEqual([]);
  });

  it('fetches a bundle once for all the tasks deployed with it and forwards their statuses', async () => {
    const { jobManager, taskManager, factory } = await startAll();
    const bundle = Buffer.from('exports.default = function other() {};');
    const hash = createHash('sha256').update(bundle).digest('hex');
    jobManager.bundles.set(hash, bundle);
    await register(jobManager, taskManager, 1_000, 3_000);

    jobManager.latest.send({ deploy: deployMessage({ bundleHash: hash, subtask: 0 }) });
    await vi.waitFor(() => expect(factory.tasks).toHaveLength(1));
    jobManager.latest.send({ deploy: deployMessage({ bundleHash: hash, subtask: 1 }) });
    await vi.waitFor(() => expect(factory.tasks).toHaveLength(2));
    factory.tasks[0]!.finish();
    jobManager.latest.send({ cancel: { task: { jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 1 } } });
    await vi.waitFor(() => expect(jobManager.latest.statuses).toHaveLength(9));

    const bySubtask = (subtask: number) =>
      jobManager.latest.statuses.filter((status) => status.task?.subtaskIndex === subtask).map((status) => status.state);
    expect(bySubtask(0)).toEqual(['DEPLOYING', 'INITIALIZING', 'RUNNING', 'FINISHED']);
    expect(bySubtask(1)).toEqual(['DEPLOYING', 'INITIALIZING', 'RUNNING', 'CANCELING', 'CANCELED']);
    expect(jobManager.bundleRequests).toEqual([hash]);
  });
});

describe('TaskManager start-up', () => {
  it('fails with BIND_FAILED when the data port is in use', async () => {
    const first = await startAll();
    const port = Number(first.taskManager.dataAddress.split(':')[1]);
    const error = await TaskManager.start(configFor(first.jobManager.port, { 'taskmanager.data.port': port }), {
      logger: recordingLogger().logger,
      clock: new ManualClock(),
      partitions: new FakeRegistry(),
      createTask: fakeTaskFactory().createTask,
      createJobLoader: () => async () => oneVertexJob(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'BIND_FAILED',
      message: `cannot listen on 127.0.0.1:${port}: port ${port} is already in use; stop what uses it or choose another port in the config`,
    });
  });
});
