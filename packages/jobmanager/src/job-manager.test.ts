import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, isWeirError, type WeirConfig } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import {
  createJobServiceClient,
  createTaskManagerServiceClient,
  fromServiceError,
  type JobManagerMessage__Output,
  type JobServiceClient,
  type JobStatusUpdate__Output,
  type TaskManagerMessage,
  type TaskManagerServiceClient,
  type grpc,
} from '@weir/rpc';
import { pathToFileURL } from 'node:url';
import { startJobManager, type JobManagerHandle } from './job-manager.ts';
import { silentLogger } from '@weir/common/testing';

const HEARTBEAT_INTERVAL = 1_000;
const HEARTBEAT_TIMEOUT = 5_000;

const doublerBundle = Buffer.from(`
const api = require('@weir/api');
exports.default = function doubler(env, args) {
  env.fromElements(1, 2, 3).uid('numbers').setParallelism(1)
    .rebalance()
    .map((x) => x * 2).uid('double')
    .sinkTo({ createWriter: () => ({ write() {}, flush() {}, close() {} }) }).name('Discard');
  env.execute('doubler ' + args.join(' '));
};
`);

function unary<Req, Res>(
  method: (request: Req, callback: (err: grpc.ServiceError | null, response?: Res) => void) => unknown,
  request: Req,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    method(request, (err, response) => (err ? reject(fromServiceError(err)) : resolve(response!)));
  });
}

/** A TaskManager over real gRPC: sends what the test says, queues what the JobManager sends. */
class FakeTaskManager {
  readonly call: grpc.ClientDuplexStream<TaskManagerMessage, JobManagerMessage__Output>;
  readonly #messages: AsyncIterator<JobManagerMessage__Output>;

  constructor(client: TaskManagerServiceClient) {
    this.call = client.Connect();
    this.#messages = this.call[Symbol.asyncIterator]();
  }

  register(id: string, slots: number): void {
    this.call.write({ register: { taskManagerId: id, dataAddress: `${id}.local:7000`, slots, pid: 4242 } });
  }

  async next(): Promise<JobManagerMessage__Output> {
    const { value, done } = await this.#messages.next();
    if (done) throw new Error('the JobManager ended the Connect stream');
    return value;
  }

  /** The next message that is not a heartbeat. */
  async nextNotHeartbeat(): Promise<JobManagerMessage__Output> {
    for (;;) {
      const message = await this.next();
      if (message.kind !== 'heartbeat') return message;
    }
  }

  /** Resolves with the WeirError the stream ended with. */
  async failure(): Promise<unknown> {
    try {
      for (;;) await this.next();
    } catch (err) {
      return fromServiceError(err as grpc.ServiceError);
    }
  }

  status(task: { jobId: string; attempt: number; vertexId: string; subtaskIndex: number }, state: string): void {
    this.call.write({ taskStatus: { task, state } });
  }
}

/** Polls `condition` until it holds; the test's own timeout bounds the wait. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A WatchJob call: each update as "STATUS" or "STATUS: cause". */
class Watch {
  readonly #updates: AsyncIterator<JobStatusUpdate__Output>;

  constructor(stream: grpc.ClientReadableStream<JobStatusUpdate__Output>) {
    this.#updates = stream[Symbol.asyncIterator]();
  }

  async next(): Promise<string | undefined> {
    try {
      const { value, done } = await this.#updates.next();
      if (done) return undefined;
      return value.failureCause ? `${value.status}: ${value.failureCause}` : value.status;
    } catch (err) {
      throw fromServiceError(err as grpc.ServiceError);
    }
  }

  /** Every update until the stream ends. */
  async rest(): Promise<string[]> {
    const seen: string[] = [];
    for (let update = await this.next(); update !== undefined; update = await this.next()) seen.push(update);
    return seen;
  }
}

// Each submitted job's main runs in a worker process that, from sources, compiles Weir's modules with tsx: seconds, more under load.
describe('startJobManager over gRPC', { timeout: 180_000 }, () => {
  let clock: ManualClock;
  let config: WeirConfig;
  let jm: JobManagerHandle;
  let jobs: JobServiceClient;
  let tms: TaskManagerServiceClient;

  beforeEach(async () => {
    clock = new ManualClock();
    config = {
      ...defaultConfig(),
      'jobmanager.bind-host': '127.0.0.1',
      'jobmanager.rpc.port': 0,
      'rest.bind-address': '127.0.0.1',
      'rest.port': 0,
      'blob.storage.directory': join(await mkdtemp(join(tmpdir(), 'weir-jm-')), 'blobs'),
      'heartbeat.interval': HEARTBEAT_INTERVAL,
      'heartbeat.timeout': HEARTBEAT_TIMEOUT,
    };
    jm = await startJobManager(config, { logger: silentLogger(), clock });
    jobs = createJobServiceClient(`127.0.0.1:${jm.port}`);
    tms = createTaskManagerServiceClient(`127.0.0.1:${jm.port}`);
  });

  afterEach(async () => {
    jobs.close();
    tms.close();
    await jm.close();
  });

  it('registers a TaskManager, deploys a submitted job on it and follows it to FINISHED', async () => {
    const tm = new FakeTaskManager(tms);
    tm.register('tm-1', 2);
    expect(await tm.next()).toMatchObject({
      kind: 'registered',
      registered: { taskManagerId: 'tm-1', heartbeatIntervalMs: HEARTBEAT_INTERVAL, heartbeatTimeoutMs: HEARTBEAT_TIMEOUT },
    });
    clock.advance(HEARTBEAT_INTERVAL);
    expect(await tm.next()).toMatchObject({ kind: 'heartbeat', heartbeat: { timestampMs: HEARTBEAT_INTERVAL } });

    const submitted = await unary(jobs.SubmitJob.bind(jobs), { bundle: doublerBundle, entryName: 'doubler.js', args: ['x2'], parallelism: 2 });
    expect(submitted.jobId).toMatch(/^[0-9a-f]{32}$/);
    expect(submitted.jobName).toBe('doubler x2');
    const jobId = submitted.jobId;
    const watch = new Watch(jobs.WatchJob({ jobId }));
    // Deployed: RUNNING once its subtasks are.
    expect(await watch.next()).toBe('CREATED');

    const bundleHash = createHash('sha256').update(doublerBundle).digest('hex');
    const deploys = [await tm.next(), await tm.next(), await tm.next()].map((m) => m.deploy!);
    expect(deploys.map((d) => [d.task!.subtaskIndex, d.parallelism, d.inputs.length])).toEqual([
      [0, 1, 0],
      [0, 2, 1],
      [1, 2, 1],
    ]);
    expect(deploys[1]).toMatchObject({
      task: { jobId, attempt: 0, subtaskIndex: 0 },
      jobName: 'doubler x2',
      bundleHash,
      entryName: 'doubler.js',
      args: ['x2'],
      defaults: { parallelism: 2, maxParallelism: -1, bufferTimeoutMs: 100, objectReuse: false },
      inputs: [
        {
          sourceVertexId: deploys[0]!.task!.vertexId,
          producers: [{ subtaskIndex: 0, taskManagerId: 'tm-1', dataAddress: 'tm-1.local:7000' }],
        },
      ],
    });
    const fetched = await unary(tms.FetchBundle.bind(tms), { bundleHash });
    expect(fetched.bundle.equals(doublerBundle)).toBe(true);

    for (const d of deploys) tm.status(d.task!, 'RUNNING');
    for (const d of deploys) tm.status(d.task!, 'FINISHED');
    expect(await watch.rest()).toEqual(['RUNNING', 'FINISHED']);

    const details = await unary(jobs.GetJob.bind(jobs), { jobId });
    expect(details.summary).toMatchObject({ jobId, name: 'doubler x2', status: 'FINISHED' });
    expect(details.attempt).toBe(0);
    expect(details.failureCause).toBe('');
    expect(details.vertices.map((v) => ({
      parallelism: v.parallelism,
      operators: v.operators.map((o) => [o.uid, o.name]),
      inputs: v.inputs.map((i) => i.partitioner),
      subtasks: v.subtasks.map((s) => [s.index, s.state, s.taskManagerId]),
    }))).toEqual([
      { parallelism: 1, operators: [['numbers', 'Collection Source']], inputs: [], subtasks: [[0, 'FINISHED', 'tm-1']] },
      {
        parallelism: 2,
        operators: [['double', 'Map'], ['', 'Discard']],
        inputs: ['rebalance'],
        subtasks: [[0, 'FINISHED', 'tm-1'], [1, 'FINISHED', 'tm-1']],
      },
    ]);
    expect(await unary(jobs.CancelJob.bind(jobs), { jobId })).toEqual({ status: 'FINISHED' });
  });

  it('returns INVALID_JOB for a malformed bundle or one without default export and keeps serving', async () => {
    for (const [code, message] of [
      ['exports.default = function (', 'job broken.js is not valid JavaScript'],
      ['exports.notDefault = () => {};', 'job broken.js has no default export function'],
    ] as const) {
      const err = await unary(jobs.SubmitJob.bind(jobs), { bundle: Buffer.from(code), entryName: 'broken.js' }).catch((e: unknown) => e);
      expect(isWeirError(err, 'INVALID_JOB')).toBe(true);
      expect((err as Error).message).toContain(message);
    }
    expect(await unary(jobs.ListJobs.bind(jobs), {})).toEqual({ jobs: [] });
  });

  it('answers unknown job IDs with JOB_NOT_FOUND and unknown bundles with BUNDLE_NOT_FOUND', async () => {
    const unknown = 'f00'.padEnd(32, '0');
    const getErr = await unary(jobs.GetJob.bind(jobs), { jobId: unknown }).catch((e: unknown) => e);
    expect(isWeirError(getErr, 'JOB_NOT_FOUND')).toBe(true);
    expect((getErr as Error).message).toContain(`'${unknown}'`);
    const cancelErr = await unary(jobs.CancelJob.bind(jobs), { jobId: unknown }).catch((e: unknown) => e);
    expect(isWeirError(cancelErr, 'JOB_NOT_FOUND')).toBe(true);
    const watchErr = await new Watch(jobs.WatchJob({ jobId: unknown })).next().catch((e: unknown) => e);
    expect(isWeirError(watchErr, 'JOB_NOT_FOUND')).toBe(true);
    const fetchErr = await unary(tms.FetchBundle.bind(tms), { bundleHash: 'beef'.repeat(16) }).catch((e: unknown) => e);
    expect(isWeirError(fetchErr, 'BUNDLE_NOT_FOUND')).toBe(true);
  });

  it('answers job IDs and bundle hashes that are none with INVALID_JOB_ID and INVALID_REQUEST, quoting a bounded part', async () => {
    for (const jobId of ['f00', 'x'.repeat(1 << 20)]) {
      const err = await unary(jobs.GetJob.bind(jobs), { jobId }).catch((e: unknown) => e);
      expect(isWeirError(err, 'INVALID_JOB_ID')).toBe(true);
      expect((err as Error).message.length).toBeLessThan(200);
    }
    const fetchErr = await unary(tms.FetchBundle.bind(tms), { bundleHash: 'beef' }).catch((e: unknown) => e);
    expect(isWeirError(fetchErr, 'INVALID_REQUEST')).toBe(true);
    expect(await unary(jobs.ListJobs.bind(jobs), {})).toEqual({ jobs: expect.any(Array) });
  });

  it('ends a Connect call whose first message is not register', async () => {
    const tm = new FakeTaskManager(tms);
    tm.call.write({ heartbeat: { timestampMs: 1 } });
    const err = await tm.failure();
    expect(isWeirError(err, 'REGISTRATION_EXPECTED')).toBe(true);
    expect((err as Error).message).toContain("got 'heartbeat'");
  });

  it('fails the job of a TaskManager whose stream closes, and ends a silent one’s stream after the heartbeat timeout', async () => {
    const quiet = new FakeTaskManager(tms);
    quiet.register('tm-quiet', 1);
    await quiet.next();
    const leaving = new FakeTaskManager(tms);
    leaving.register('tm-leaving', 1);
    await leaving.next();

    const { jobId } = await unary(jobs.SubmitJob.bind(jobs), { bundle: doublerBundle, entryName: 'doubler.js', parallelism: 2 });
    const watch = new Watch(jobs.WatchJob({ jobId }));
    expect(await watch.next()).toBe('CREATED');
    const onLeaving = (await leaving.next()).deploy!;
    expect([onLeaving.task!.subtaskIndex, onLeaving.parallelism]).toEqual([1, 2]);
    leaving.call.cancel();

    const canceled: string[] = [];
    while (canceled.length < 2) {
      const message = await quiet.next();
      if (message.kind !== 'cancel') continue;
      const task = message.cancel!.task!;
      canceled.push(`${task.vertexId === onLeaving.task!.vertexId ? 'map' : 'source'}#${task.subtaskIndex}`);
      quiet.status(task, 'CANCELED');
    }
    expect(canceled.sort()).toEqual(['map#0', 'source#0']);
    expect(await watch.rest()).toEqual(['FAILING', 'FAILED: TaskManager tm-leaving lost: connection closed']);

    clock.advance(HEARTBEAT_TIMEOUT);
    const err = await quiet.failure();
    expect(isWeirError(err, 'TASK_MANAGER_LOST')).toBe(true);
    expect((err as Error).message).toBe('TaskManager tm-quiet lost: heartbeat timeout');
  });

  it('takes a checkpoint with the tasks of a job over the control stream, lists it, and deletes it when the job finishes', async () => {
    await jm.close();
    const checkpoints = join(await mkdtemp(join(tmpdir(), 'weir-jm-cp-')), 'checkpoints');
    jm = await startJobManager(
      { ...config, 'execution.checkpointing.interval': 1_000, 'state.checkpoints.dir': checkpoints },
      { logger: silentLogger(), clock },
    );
    jobs.close();
    tms.close();
    jobs = createJobServiceClient(`127.0.0.1:${jm.port}`);
    tms = createTaskManagerServiceClient(`127.0.0.1:${jm.port}`);
    const tm = new FakeTaskManager(tms);
    tm.register('tm-1', 2);
    await tm.next();

    const { jobId } = await unary(jobs.SubmitJob.bind(jobs), { bundle: doublerBundle, entryName: 'doubler.js', parallelism: 2 });
    const deploys = [await tm.nextNotHeartbeat(), await tm.nextNotHeartbeat(), await tm.nextNotHeartbeat()].map((m) => m.deploy!);
    const jobDir = join(checkpoints, jobId);
    expect(deploys.map((d) => d.checkpointing)).toEqual(
      Array(3).fill({ mode: 'EXACTLY_ONCE', backend: 'filesystem', checkpointDir: pathToFileURL(jobDir).href, maxInlineBytes: 0, asyncSnapshots: true, incremental: false, changelogEnabled: false, changelogMaterializeIntervalMs: 0, unaligned: false, alignedCheckpointTimeoutMs: 0 }),
    );
    expect(deploys.map((d) => d.restore)).toEqual([null, null, null]);
    for (const d of deploys) tm.status(d.task!, 'RUNNING');
    await waitFor(async () => (await unary(jobs.GetJob.bind(jobs), { jobId })).vertices.every((v) => v.subtasks.every((s) => s.state === 'RUNNING')));

    clock.advance(1_000);
    const trigger = (await tm.nextNotHeartbeat()).triggerCheckpoint!;
    expect([trigger.task, trigger.checkpointId]).toEqual([deploys[0]!.task, 1]);
    for (const d of deploys) {
      tm.call.write({
        acknowledgeCheckpoint: {
          task: d.task!,
          checkpointId: 1,
          state: Buffer.from(JSON.stringify({ operators: {} })),
          metrics: { syncMs: 1, asyncMs: 2, alignmentMs: d.inputs.length * 5, stateBytes: 100, checkpointedBytes: 40 },
        },
      });
    }
    const notified = [await tm.nextNotHeartbeat(), await tm.nextNotHeartbeat(), await tm.nextNotHeartbeat()].map((m) => m.notifyCheckpoint!);
    expect(notified.map((n) => [n.task, n.checkpointId, n.completed])).toEqual(deploys.map((d) => [d.task, 1, true]));
    const metadata = JSON.parse(await readFile(join(jobDir, 'chk-1', '_metadata'), 'utf8'));
    expect(metadata).toMatchObject({ version: 1, jobId, checkpointId: 1, jobName: 'doubler ' });

    const history = await unary(jobs.ListCheckpoints.bind(jobs), { jobId });
    expect(history).toEqual({
      checkpoints: [
        {
          checkpointId: 1,
          status: 'COMPLETED',
          triggerTimeMs: 1_000,
          durationMs: 0,
          stateBytes: 300,
          checkpointedBytes: 120,
          alignmentMs: 5,
          syncMs: 1,
          acknowledged: 3,
          totalTasks: 3,
          failureReason: '',
          externalPath: pathToFileURL(join(jobDir, 'chk-1')).href,
          retained: true,
          kind: 'CHECKPOINT',
          unaligned: false,
          persistedBytes: 0,
        },
      ],
      completed: 1,
      failed: 0,
      restoredFrom: 0,
      restoredBytes: 0,
      // No sweep has counted the directory yet: the first comes after a restore, 10 checkpoints or the job's end.
      leftBehindCounted: false,
      leftBehindFiles: 0,
      leftBehindBytes: 0,
      leftBehindCountedAtMs: 0,
    });

    for (const d of deploys) tm.status(d.task!, 'FINISHED');
    await waitFor(async () => !existsSync(jobDir));
    const missing = await unary(jobs.ListCheckpoints.bind(jobs), { jobId: 'f00'.padEnd(32, '0') }).catch((e: unknown) => e);
    expect(isWeirError(missing, 'JOB_NOT_FOUND')).toBe(true);
  });

  it('refuses to start on a port already in use with BIND_FAILED naming the port', async () => {
    const err = await startJobManager({ ...config, 'jobmanager.rpc.port': jm.port }, { logger: silentLogger(), clock }).catch((e: unknown) => e);
    expect(isWeirError(err, 'BIND_FAILED')).toBe(true);
    expect((err as Error).message).toContain(`port ${jm.port} is already in use`);
  });

  it('serves the REST API on rest.port, and refuses to start when that port is taken', async () => {
    const overview = await fetch(`http://127.0.0.1:${jm.restPort}/overview`);
    expect(overview.status).toBe(200);
    expect(await overview.json()).toMatchObject({ taskmanagers: 0, 'jobs-running': 0 });
    const err = await startJobManager({ ...config, 'rest.port': jm.restPort }, { logger: silentLogger(), clock }).catch((e: unknown) => e);
    expect(isWeirError(err, 'BIND_FAILED')).toBe(true);
    expect((err as Error).message).toContain(`port ${jm.restPort} is already in use`);
  });
});
