import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointFailureReason, type TaskStateSnapshot } from '@weir/common';
import { recordingLogger } from '@weir/common/testing';
import { deployerHarness } from '../testing/deployer-harness.ts';
import { deployMessage, type DeployOverrides } from '../testing/jobs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'weir-deployer-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

function setup() {
  const { logger, entries: logs } = recordingLogger();
  const harness = deployerHarness({ logger });
  cleanups.push(() => harness.close());
  return { ...harness, logs };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

const KEY = { jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 0 };

const SNAPSHOT: TaskStateSnapshot = {
  operators: {
    'op-1': { operator: [{ handle: { kind: 'file', path: 'op-1-0-operator', size: 12 }, states: { '$source-reader': { mode: 'split' } } }] },
  },
};

function checkpointing(overrides: Partial<NonNullable<DeployOverrides['checkpointing']>> = {}): NonNullable<DeployOverrides['checkpointing']> {
  return { mode: 'EXACTLY_ONCE', backend: 'filesystem', checkpointDir: '', maxInlineBytes: 5_242_880, asyncSnapshots: true, incremental: false, unaligned: false, alignedCheckpointTimeoutMs: 0, changelogEnabled: false, changelogMaterializeIntervalMs: 0, ...overrides };
}

describe('Deployer with checkpointing', () => {
  it('gives the task its checkpoint storage and its share of the restored checkpoint, below the same directory', async () => {
    const directory = join(await tempDirectory(), 'job-1');
    const { factory, deployer, report } = setup();
    deployer.deploy(
      deployMessage({
        checkpointing: checkpointing({ mode: 'AT_LEAST_ONCE', checkpointDir: directory, asyncSnapshots: false }),
        restore: { checkpointId: 7, state: Buffer.from(JSON.stringify(SNAPSHOT)), checkpointPath: `${directory}/chk-7` },
      }),
      report,
    );
    await flush();
    const options = factory.tasks[0]!.options;
    expect(options.checkpointing).toMatchObject({ mode: 'AT_LEAST_ONCE', backend: 'filesystem', maxInlineBytes: 5_242_880, asyncSnapshots: false });
    expect(options.checkpointing!.storage!.url).toBe(pathToFileURL(directory).href);
    expect(options.restore).toMatchObject({ checkpointId: 7, state: SNAPSHOT });
    expect(options.restore!.storage!.url).toBe(pathToFileURL(`${directory}/chk-7`).href);
    await options.checkpointing!.storage!.write('chk-7/op-1-0-operator', Buffer.from('operator 0'));
    expect(Buffer.from(await options.restore!.storage!.read('op-1-0-operator')).toString()).toBe('operator 0');
  });

  it('opens a restore path outside the checkpoint directory (a savepoint) by itself', async () => {
    const root = await tempDirectory();
    const { factory, deployer, report } = setup();
    deployer.deploy(
      deployMessage({
        checkpointing: checkpointing({ checkpointDir: `${root}/checkpoints/job-1` }),
        restore: { checkpointId: 3, state: Buffer.from(JSON.stringify(SNAPSHOT)), checkpointPath: `file://${root}/savepoints/savepoint-abc` },
      }),
      report,
    );
    await flush();
    expect(factory.tasks[0]!.options.restore!.storage!.url).toBe(`file://${root}/savepoints/savepoint-abc`);
  });

  it.each([
    ['no checkpointing message', {}, undefined],
    ['an empty mode', { checkpointing: checkpointing({ mode: '', checkpointDir: '/x' }) }, undefined],
    [
      'the memory backend without a directory',
      { checkpointing: checkpointing({ backend: 'memory', maxInlineBytes: 1024 }) },
      { mode: 'EXACTLY_ONCE', backend: 'memory', storage: undefined, maxInlineBytes: 1024, asyncSnapshots: true, incremental: false, unaligned: false, alignedCheckpointTimeoutMs: 0, openStorage: expect.any(Function) },
    ],
  ])('passes checkpointing %s as %j, and no restore without one', async (_case, overrides: DeployOverrides, expected) => {
    const { factory, deployer, report } = setup();
    deployer.deploy(deployMessage(overrides), report);
    await flush();
    expect(factory.tasks[0]!.options.checkpointing).toEqual(expected);
    expect(factory.tasks[0]!.options.restore).toBeUndefined();
  });

  it.each([
    ['heap state when the JobManager names none', {}, { kind: 'heap' }],
    ['heap state', { keyedStateBackend: 'heap' }, { kind: 'heap' }],
    // Flink's state.backend applies without checkpointing too: a large-state job spills to LevelDB either way.
    ['LevelDB without checkpointing, below the local state directory', { keyedStateBackend: 'level' }, { kind: 'level', localStateDir: '/tmp/weir-test-local-state' }],
    [
      'LevelDB with LevelDB checkpoints',
      { keyedStateBackend: 'level', checkpointing: checkpointing({ backend: 'level', checkpointDir: '/x', incremental: true }) },
      { kind: 'level', localStateDir: '/tmp/weir-test-local-state' },
    ],
  ])('gives the task %s', async (_case, overrides: DeployOverrides, expected) => {
    const { factory, deployer, report } = setup();
    deployer.deploy(deployMessage(overrides), report);
    await flush();
    expect(factory.tasks[0]!.options.stateBackend).toEqual(expected);
  });

  it('restores without storage when the checkpoint path is empty (memory backend: state is inline)', async () => {
    const { factory, deployer, report } = setup();
    deployer.deploy(
      deployMessage({
        checkpointing: checkpointing({ backend: 'memory' }),
        restore: { checkpointId: 2, state: Buffer.from(JSON.stringify({ operators: {} })), checkpointPath: '' },
      }),
      report,
    );
    await flush();
    expect(factory.tasks[0]!.options.restore).toEqual({ checkpointId: 2, state: { operators: {} }, storage: undefined });
  });

  it.each([
    [
      'the checkpoint directory is no storage URL',
      { checkpointing: checkpointing({ checkpointDir: 'hdfs://namenode/checkpoints/job-1' }) },
      'invalid storage URL "hdfs://namenode/checkpoints/job-1": its scheme hdfs:// is not supported; use s3://bucket/prefix, file:///absolute/path or a local path',
      'INVALID_STORAGE_URL',
    ],
    [
      'the restore path is no storage URL',
      { restore: { checkpointId: 4, state: Buffer.from('{"operators":{}}'), checkpointPath: 'gs://bucket/chk-4' } },
      'invalid storage URL "gs://bucket/chk-4": its scheme gs:// is not supported; use s3://bucket/prefix, file:///absolute/path or a local path',
      'INVALID_STORAGE_URL',
    ],
    [
      'the mode is unknown',
      { checkpointing: checkpointing({ mode: 'SOMETIMES', checkpointDir: '/x' }) },
      'the deploy names the checkpointing mode "SOMETIMES"; it must be one of EXACTLY_ONCE, AT_LEAST_ONCE',
      'INVALID_DEPLOYMENT',
    ],
    [
      'the backend is unknown',
      { checkpointing: checkpointing({ backend: 'rocksdb', checkpointDir: '/x' }) },
      'the deploy names the state backend "rocksdb"; it must be one of memory, filesystem, level',
      'INVALID_DEPLOYMENT',
    ],
    [
      'the keyed state backend is unknown',
      { keyedStateBackend: 'rocksdb' },
      'the deploy names the keyed state backend "rocksdb"; it must be one of heap, level',
      'INVALID_DEPLOYMENT',
    ],
    [
      'LevelDB checkpoints come with heap state',
      { checkpointing: checkpointing({ backend: 'level', checkpointDir: '/x' }) },
      'the deploy asks for LevelDB checkpoints of heap state; the JobManager must send keyed_state_backend level with checkpointing backend level',
      'INVALID_DEPLOYMENT',
    ],
    [
      'the filesystem backend has no directory',
      { checkpointing: checkpointing() },
      "the deploy asks for the filesystem state backend but names no checkpoint directory; the JobManager must send the job's checkpoint directory",
      'INVALID_DEPLOYMENT',
    ],
    [
      'the restore state is not JSON',
      { restore: { checkpointId: 4, state: Buffer.from('{oops'), checkpointPath: '' } },
      /^the deploy carries restore state of checkpoint 4 that is not JSON \(.+\); it must be a TaskStateSnapshot as JSON$/,
      'INVALID_DEPLOYMENT',
    ],
    [
      'the restore state has no operators',
      { restore: { checkpointId: 4, state: Buffer.from('[]'), checkpointPath: '' } },
      'the deploy carries restore state of checkpoint 4 that is not an object with an "operators" object; it must be a TaskStateSnapshot as JSON',
      'INVALID_DEPLOYMENT',
    ],
  ])('reports FAILED before starting when %s', async (_case, overrides: DeployOverrides, message: string | RegExp, code) => {
    const { factory, deployer, updates, report } = setup();
    deployer.deploy(deployMessage(overrides), report);
    await flush();
    expect(factory.tasks).toEqual([]);
    expect(updates.map((update) => [update.state, update.failureCode])).toEqual([
      ['DEPLOYING', ''],
      ['FAILED', code],
    ]);
    const prefix = 'deploying vertex-a (1/2) of job job-1 attempt 0 failed: ';
    const failureCause = updates[1]!.failureCause ?? '';
    expect(failureCause.startsWith(prefix)).toBe(true);
    const cause = failureCause.slice(prefix.length);
    if (typeof message === 'string') expect(cause).toBe(message);
    else expect(cause).toMatch(message);
  });
});

describe('Deployer checkpoint commands', () => {
  it('passes triggers and notifications to the task they name and ignores those of tasks not here', async () => {
    const { factory, deployer, report, logs } = setup();
    deployer.deploy(deployMessage({ subtask: 0 }), report);
    deployer.deploy(deployMessage({ subtask: 1 }), report);
    await flush();
    deployer.triggerCheckpoint({ task: KEY, checkpointId: 5, timestampMs: 1_700, options: null });
    deployer.notifyCheckpoint({ task: KEY, checkpointId: 5, completed: true });
    deployer.notifyCheckpoint({ task: { ...KEY, subtaskIndex: 1 }, checkpointId: 6, completed: false });
    deployer.triggerCheckpoint({ task: { ...KEY, attempt: 9 }, checkpointId: 7, timestampMs: 1_800, options: null });
    deployer.notifyCheckpoint({ task: null, checkpointId: 7, completed: true });
    expect(factory.tasks[0]!.checkpointCalls).toEqual([
      { call: 'trigger', checkpointId: 5, timestamp: 1_700, options: { type: 'checkpoint' } },
      { call: 'complete', checkpointId: 5 },
    ]);
    expect(factory.tasks[1]!.checkpointCalls).toEqual([{ call: 'abort', checkpointId: 6 }]);
    const ignored = logs.filter((entry) => entry.message.startsWith('ignored a checkpoint'));
    expect(ignored.map((entry) => [entry.level, entry.message, entry.fields.checkpointId])).toEqual([
      ['debug', 'ignored a checkpoint trigger for a task not running here', 7],
      ['debug', 'ignored a checkpoint notification for a task not running here', 7],
    ]);
    const triggered = logs.find((entry) => entry.message === 'checkpoint triggered');
    expect(triggered?.fields).toMatchObject({ checkpointId: 5, jobId: 'job-1', vertexId: 'vertex-a', subtask: 0 });
  });

  it('sends the task acknowledgement with the snapshot as JSON and whole-millisecond figures, and its declines', async () => {
    const { factory, deployer, report, acks, declines, logs } = setup();
    deployer.deploy(deployMessage(), report);
    await flush();
    const task = factory.tasks[0]!;
    task.acknowledge({ checkpointId: 5, state: SNAPSHOT, metrics: { syncMs: 1.4, asyncMs: 20.6, alignmentMs: 0, stateBytes: 12, checkpointedBytes: 12, unaligned: false, persistedBytes: 0 } });
    task.decline({ checkpointId: 6, reason: CheckpointFailureReason.STATE_TOO_LARGE, message: 'state of 6 MB exceeds the memory backend limit of 5 MB' });
    expect(acks).toHaveLength(1);
    expect({ ...acks[0], state: JSON.parse(Buffer.from(acks[0]!.state as Uint8Array).toString()) }).toEqual({
      task: KEY,
      checkpointId: 5,
      state: SNAPSHOT,
      metrics: { syncMs: 1, asyncMs: 21, alignmentMs: 0, stateBytes: 12, checkpointedBytes: 12, unaligned: false, persistedBytes: 0 },
    });
    expect(declines).toEqual([
      { task: KEY, checkpointId: 6, reasonCode: 'CHECKPOINT_STATE_TOO_LARGE', message: 'state of 6 MB exceeds the memory backend limit of 5 MB' },
    ]);
    expect(logs.filter((entry) => entry.fields.checkpointId !== undefined).map((entry) => [entry.message, entry.fields.checkpointId])).toEqual([
      ['acknowledging checkpoint', 5],
      ['declining checkpoint', 6],
    ]);
  });

  it('tells the JobManager when a task awaits its final checkpoint, with the last checkpoint it took before its end', async () => {
    const { factory, deployer, report, awaitingFinal } = setup();
    deployer.deploy(deployMessage(), report);
    await flush();
    factory.tasks[0]!.awaitFinalCheckpoint({ lastCheckpointBeforeEnd: 4 });
    expect(awaitingFinal).toEqual([{ task: KEY, lastCheckpointBeforeEnd: 4 }]);
  });

  it('declines a trigger for a task that is still being deployed, and one whose trigger throws', async () => {
    const { factory, deployer, report, declines } = setup();
    deployer.deploy(deployMessage(), report);
    deployer.triggerCheckpoint({ task: KEY, checkpointId: 1, timestampMs: 10, options: null });
    await flush();
    factory.tasks[0]!.triggerCheckpoint = () => {
      throw new Error('mailbox closed');
    };
    deployer.triggerCheckpoint({ task: KEY, checkpointId: 2, timestampMs: 20, options: null });
    expect(declines).toEqual([
      {
        task: KEY,
        checkpointId: 1,
        reasonCode: 'CHECKPOINT_TASK_NOT_READY',
        message: 'the task is still being deployed (DEPLOYING); checkpoints are triggered only while every task runs',
      },
      { task: KEY, checkpointId: 2, reasonCode: 'CHECKPOINT_DECLINED', message: 'triggering checkpoint 2 failed: mailbox closed' },
    ]);
  });
});
