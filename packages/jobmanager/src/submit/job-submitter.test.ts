import { mkdir, mkdtemp, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ExecutionConfig } from '@weir/api';
import { CommonErrorCode, JobStatus, WeirError, defaultConfig, isWeirError, type WeirConfig } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { BlobStore } from '../blob/blob-store.ts';
import { Dispatcher } from '../dispatcher.ts';
import type { JobDefaults } from '../job/job-spec.ts';
import { SlotPool } from '../scheduler/slot-pool.ts';
import { silentLogger } from '@weir/common/testing';
import { FakeGateway, jobGraph, vertex } from '../testing/fixtures.ts';
import { MemoryStorage } from '@weir/storage/testing';
import type { JobPlan, JobPlanner } from './job-planner.ts';

/** The planned jobs here have no split sources: nothing asks for their enumerators. */
const noEnumerators = (): never => {
  throw new Error('these jobs have no split sources');
};
import { JobSubmitter } from './job-submitter.ts';

const config: WeirConfig = { ...defaultConfig(), 'parallelism.default': 3, 'pipeline.max-parallelism': 256, 'execution.buffer-timeout': 50 };

const plain: ExecutionConfig = { parallelism: 1, maxParallelism: -1, bufferTimeoutMs: 100, autoWatermarkIntervalMs: 200, objectReuse: false, checkpointing: undefined, stateBackend: undefined, restartStrategy: undefined };

async function setup(plan: (defaults: JobDefaults) => Promise<JobPlan>, clusterConfig: WeirConfig = config) {
  const dir = await mkdtemp(join(tmpdir(), 'weir-submit-'));
  const blobStore = await BlobStore.open(dir);
  const logger = silentLogger();
  const gateway = new FakeGateway();
  const dispatcher = new Dispatcher({ clock: new ManualClock(), logger, slotPool: new SlotPool(), gateway, slotRequestTimeoutMs: 1_000 });
  const calls: { code: string; entryName: string; args: readonly string[]; defaults: JobDefaults }[] = [];
  const closed: string[] = [];
  const planner: JobPlanner = {
    async plan({ jobId, code, entryName, args, defaults }) {
      calls.push({ code, entryName, args, defaults });
      const userCode = { onDeath() {}, close: async () => void closed.push(jobId), enumerators: noEnumerators, jobEnded: async () => [] };
      return { ...(await plan(defaults)), userCode };
    },
  };
  const opened: string[] = [];
  const openStorage = (url: string) => {
    opened.push(url);
    return new MemoryStorage(`memory://${url}`);
  };
  const warn = vi.spyOn(logger, 'warn');
  return { dir, blobStore, dispatcher, calls, closed, warn, opened, submitter: new JobSubmitter(planner, blobStore, dispatcher, clusterConfig, logger, openStorage) };
}

const request = (parallelism: number) => ({ bundle: Buffer.from('bundle code'), entryName: 'wc.ts', args: ['a'], parallelism, savepointPath: '', allowNonRestoredState: false, configuration: {} });

describe('JobSubmitter', () => {
  it('plans with the request parallelism or the configured default, stores the bundle and starts the job', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: plain, splitSources: [] }));
    const response = await s.submitter.submit(request(0));
    await s.submitter.submit(request(5));
    expect(s.calls.map((c) => [c.code, c.entryName, c.args, c.defaults])).toEqual([
      ['bundle code', 'wc.ts', ['a'], { parallelism: 3, maxParallelism: 256, bufferTimeoutMs: 50, autoWatermarkIntervalMs: 200, objectReuse: false }],
      ['bundle code', 'wc.ts', ['a'], { parallelism: 5, maxParallelism: 256, bufferTimeoutMs: 50, autoWatermarkIntervalMs: 200, objectReuse: false }],
    ]);
    expect(response.jobName).toBe('test job');
    expect(response.jobId).toMatch(/^[0-9a-f]{32}$/);
    const job = s.dispatcher.get(response.jobId!);
    expect(job.status).toBe(JobStatus.CREATED);
    expect(s.blobStore.get(job.spec.bundleHash).toString()).toBe('bundle code');
    expect(job.spec.settings).toEqual({ checkpointing: undefined, stateBackend: 'heap', restartStrategy: { kind: 'none' } });
    expect(s.opened).toEqual([]);
    expect(s.dispatcher.list()).toHaveLength(2);
    expect(s.warn).not.toHaveBeenCalled();
    expect(s.closed).toEqual([]);
  });

  it('warns once per job about operators without uid, naming them', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: ['Map', 'Sink: print'], executionConfig: plain, splitSources: [] }));
    const { jobId } = await s.submitter.submit(request(1));
    expect(s.warn).toHaveBeenCalledTimes(1);
    expect(s.warn.mock.calls[0]).toEqual([
      { jobId, operators: ['Map', 'Sink: print'] },
      'operators without uid: Map, Sink: print; their state cannot be restored once the job changes, set .uid() on each',
    ]);
  });

  it("applies the job's own configuration keys (weir run -D) over the cluster's, under what the job's code sets", async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: plain, splitSources: [] }));
    const configuration = { 'execution.checkpointing.interval': '1s', 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '4', 'parallelism.default': '2', 'state.backend': 'memory' };
    const { jobId } = await s.submitter.submit({ ...request(0), configuration });
    const job = s.dispatcher.get(jobId!);
    expect(s.calls[0]!.defaults.parallelism).toBe(2);
    expect(job.spec.settings.checkpointing).toMatchObject({ intervalMs: 1_000, backend: 'memory' });
    expect(job.spec.settings.restartStrategy).toEqual({ kind: 'fixed-delay', attempts: 4, delayMs: 1_000 });
    expect(job.spec.configuration).toEqual(configuration);
  });

  it('refuses a key of the cluster\'s processes or an unknown one before planning, and changes nothing', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: plain, splitSources: [] }));
    const slots = await s.submitter.submit({ ...request(0), configuration: { 'taskmanager.numberOfTaskSlots': '4' } }).catch((e: unknown) => e);
    expect(isWeirError(slots, CommonErrorCode.INVALID_CONFIG)).toBe(true);
    expect((slots as Error).message).toMatch(/^config key taskmanager.numberOfTaskSlots \(from the job's -D taskmanager.numberOfTaskSlots=4\) cannot apply to one job/);
    const typo = await s.submitter.submit({ ...request(0), configuration: { 'restart-strategy.typ': 'none' } }).catch((e: unknown) => e);
    expect((typo as Error).message).toMatch(/did you mean restart-strategy.type\?/);
    expect(s.calls).toEqual([]);
    expect(s.dispatcher.list()).toEqual([]);
  });

  it('returns a planning error as it is and changes nothing', async () => {
    const error = new WeirError(CommonErrorCode.INVALID_JOB, 'job wc.ts has no default export function');
    const s = await setup(async () => {
      throw error;
    });
    await expect(s.submitter.submit(request(1))).rejects.toBe(error);
    expect(s.dispatcher.list()).toEqual([]);
    expect(await readdir(s.dir)).toEqual([]);
  });

  it("resolves the job's checkpointing over the cluster's and opens the checkpoint directory", async () => {
    const executionConfig: ExecutionConfig = {
      ...plain,
      checkpointing: { intervalMs: 500, mode: 'AT_LEAST_ONCE' },
      stateBackend: { kind: 'filesystem', checkpointDir: 's3://bucket/cp', asyncSnapshots: true },
    };
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig, splitSources: [] }), { ...config, 'state.savepoints.allowed-dirs': 's3://bucket' });
    const { jobId } = await s.submitter.submit(request(1));
    const job = s.dispatcher.get(jobId!);
    expect(job.spec.settings.checkpointing).toMatchObject({ intervalMs: 500, mode: 'AT_LEAST_ONCE', backend: 'filesystem', directory: 's3://bucket/cp' });
    expect(job.spec.settings.restartStrategy).toEqual({ kind: 'exponential-delay', initialBackoffMs: 1_000, maxBackoffMs: 60_000, multiplier: 1.5, resetThresholdMs: 3_600_000, jitter: 0.1 });
    expect(s.opened).toEqual(['s3://bucket/cp']);
  });

  it('rejects a savepoint path that holds no savepoint before storing anything or starting a job', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: plain, splitSources: [] }), { ...config, 'state.savepoints.dir': '/nowhere' });
    const err = await s.submitter.submit({ ...request(1), savepointPath: '/nowhere/savepoint-1', allowNonRestoredState: true }).catch((e: unknown) => e);
    expect(isWeirError(err, 'SAVEPOINT_NOT_FOUND')).toBe(true);
    expect((err as Error).message).toBe(
      'no savepoint at memory:///nowhere/savepoint-1: the directory does not exist or is empty; give the directory of a savepoint or retained checkpoint (the one holding _metadata)',
    );
    expect(s.opened).toEqual(['/nowhere/savepoint-1']);
    expect(s.dispatcher.list()).toEqual([]);
    expect(s.closed).toHaveLength(1);
    expect(await readdir(s.dir)).toEqual([]);
  });

  it('refuses a savepoint path outside the allowed directories before opening it', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: plain, splitSources: [] }), { ...config, 'state.savepoints.dir': '/nowhere' });
    const err = await s.submitter.submit({ ...request(1), savepointPath: '/etc', allowNonRestoredState: true }).catch((e: unknown) => e);
    expect(isWeirError(err, 'PATH_NOT_ALLOWED')).toBe(true);
    expect((err as Error).message).toBe(
      'savepoint path /etc is outside the directories this JobManager allows: /nowhere (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs); give a path below one of them',
    );
    expect(s.opened).toEqual([]);
    expect(s.dispatcher.list()).toEqual([]);
  });

  it("refuses a job whose own checkpoint directory (its state backend's) is outside the allowed roots, naming them, before opening it", async () => {
    const outside: ExecutionConfig = { ...plain, checkpointing: { intervalMs: 500 }, stateBackend: { kind: 'filesystem', checkpointDir: '/etc/cron.d', asyncSnapshots: true } };
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: outside, splitSources: [] }), { ...config, 'state.checkpoints.dir': '/data/checkpoints' });
    const err = await s.submitter.submit(request(1)).catch((e: unknown) => e);
    expect(isWeirError(err, 'PATH_NOT_ALLOWED')).toBe(true);
    expect((err as Error).message).toBe(
      'checkpoint directory /etc/cron.d is outside the directories this JobManager allows: /data/checkpoints (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs); give a path below one of them',
    );
    expect(s.opened).toEqual([]);
    expect(s.dispatcher.list()).toEqual([]);
    expect(s.closed).toHaveLength(1);
  });

  it('opens an allowed checkpoint directory by its resolved path: a link swapped afterwards does not redirect it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'weir-submit-root-'));
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'link'));
    const executionConfig: ExecutionConfig = { ...plain, checkpointing: { intervalMs: 500 }, stateBackend: { kind: 'filesystem', checkpointDir: join(root, 'link'), asyncSnapshots: true } };
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig, splitSources: [] }), { ...config, 'state.checkpoints.dir': root });
    const { jobId } = await s.submitter.submit(request(1));
    expect(s.opened).toEqual([join(root, 'real')]);
    expect(s.dispatcher.get(jobId!).spec.settings.checkpointing?.directory).toBe(join(root, 'real'));
  });

  it('keeps its submitter as the job\'s owner', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: plain, splitSources: [] }));
    const { jobId } = await s.submitter.submit(request(1), 'jwt:alice');
    expect(s.dispatcher.ownerOf(jobId!)).toBe('jwt:alice');
    expect(s.dispatcher.ownerOf((await s.submitter.submit(request(1))).jobId!)).toBeUndefined();
  });

  it('rejects a filesystem backend without a directory before storing anything', async () => {
    const executionConfig: ExecutionConfig = { ...plain, checkpointing: { intervalMs: 500 }, stateBackend: { kind: 'filesystem', checkpointDir: undefined, asyncSnapshots: true } };
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig, splitSources: [] }));
    const err = await s.submitter.submit(request(1)).catch((e: unknown) => e);
    expect(isWeirError(err, 'INVALID_JOB_SETTINGS')).toBe(true);
    expect((err as Error).message).toBe('FsStateBackend needs a checkpoint directory: pass a path or set state.checkpoints.dir');
    expect(s.dispatcher.list()).toEqual([]);
    expect(s.closed).toHaveLength(1);
    expect(await readdir(s.dir)).toEqual([]);
  });

  it('refuses a job whose sinks claim what a running job holds, naming it, until that job ends', async () => {
    const resources = [{ kind: 'kafka.transactional-id-prefix', scope: 'localhost:9092', name: 'orders', description: "Kafka transactional.id prefix 'orders' on localhost:9092" }];
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [], executionConfig: plain, splitSources: [], exclusiveResources: resources }));
    const { jobId } = await s.submitter.submit(request(1));
    const refused = await s.submitter.submit(request(1)).catch((e: unknown) => e);
    expect(isWeirError(refused, 'RESOURCE_IN_USE')).toBe(true);
    expect((refused as Error).message).toContain(`uses Kafka transactional.id prefix 'orders' on localhost:9092, which job 'test job' (${jobId}) uses while it runs`);
    expect(s.dispatcher.list()).toHaveLength(1);
    expect(s.closed).toHaveLength(1);
    s.dispatcher.cancel(jobId!);
    await expect(s.submitter.submit(request(1))).resolves.toMatchObject({ jobName: 'test job' });
  });
});
