import { type CheckpointedFunction, type MapFunction, type StreamExecutionEnvironment } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { checkpoint, notifyAborted, notifyComplete, restoreFrom } from '../testing/checkpoints.ts';
import { CountPerKey, listSource, SourceControl, TransactionalSink } from '../testing/checkpoint-fixtures.ts';
import { CollectingSink, runJob, states, waitUntil } from '../testing/harness.ts';
import { MemoryStorage } from '@weir/storage/testing';
import { testCheckpointing } from '../testing/checkpointing-defaults.ts';

const WORDS = Array.from({ length: 2000 }, (_, i) => `word-${i % 400}`);

function countJob(control: SourceControl, sink: TransactionalSink<[string, number]>) {
  return (env: StreamExecutionEnvironment): void => {
    env
      .fromSource(listSource(WORDS, control), 'words')
      .keyBy((w) => w)
      .process(new CountPerKey())
      .name('Count')
      .sinkTo(sink);
  };
}

const settings = testCheckpointing;

describe('declined checkpoints', () => {
  it('declines STATE_TOO_LARGE over the memory backend limit, naming both sizes, and keeps running', async () => {
    const sink = new TransactionalSink<[string, number]>();
    const control = new SourceControl(1000);
    const job = await runJob(countJob(control, sink), { checkpointing: settings({ backend: 'memory', storage: undefined, maxInlineBytes: 1000 }) });
    await waitUntil(() => sink.writtenBy(0) === 1000);
    expect(await checkpoint(job, 1)).toBe('declined');
    const count = job.task(job.jobGraph.vertices[1]!.name);
    const { decline } = job.declines.find((d) => d.task === count)!;
    expect(decline.reason).toBe('CHECKPOINT_STATE_TOO_LARGE');
    expect(decline.message).toMatch(
      /^keyed state of Count \(1\/1\) in checkpoint 1 is \d{4,} bytes, over the memory state backend's limit of 1000 bytes per state; use FsStateBackend/,
    );
    // The source's position is small: it acknowledged.
    expect(job.acks.get(1)!.has(job.task(job.jobGraph.vertices[0]!.name))).toBe(true);
    control.release(2000, true);
    await waitUntil(() => sink.writtenBy(0) === 2000);
    expect(job.deployed.map((d) => d.task.state)).toEqual(['RUNNING', 'RUNNING']);
    await Promise.all(job.deployed.map((d) => d.task.cancel()));
  });

  it('declines STORAGE_FAILURE with the cause when a write fails, and takes the next checkpoint once storage is back', async () => {
    const storage = new MemoryStorage();
    const sink = new TransactionalSink<[string, number]>();
    const control = new SourceControl(500);
    const job = await runJob(countJob(control, sink), { checkpointing: settings({ storage }) });
    await waitUntil(() => sink.writtenBy(0) === 500);
    storage.fail('write', '', new Error('ENOSPC: no space left on device'));
    expect(await checkpoint(job, 1)).toBe('declined');
    expect(job.declines.map((d) => d.decline.reason)).toContain('CHECKPOINT_STORAGE_FAILURE');
    const message = job.declines[0]!.decline.message;
    expect(message).toMatch(/^writing /);
    expect(message).toContain(' of checkpoint 1 to chk-1/');
    expect(message).toContain('ENOSPC: no space left on device');
    storage.heal();
    control.release(1000);
    await waitUntil(() => sink.writtenBy(0) === 1000);
    expect(await checkpoint(job, 2)).toBe('acked');
    notifyComplete(job, 2);
    await waitUntil(() => sink.committed.length === 1000);
    expect(job.deployed.map((d) => d.task.state)).toEqual(['RUNNING', 'RUNNING']);
    await Promise.all(job.deployed.map((d) => d.task.cancel()));
  });

  it('does not decline a checkpoint the JobManager aborted while its snapshot was written (its files deleted under it)', async () => {
    const storage = new MemoryStorage();
    const sink = new TransactionalSink<[string, number]>();
    const control = new SourceControl(500);
    const job = await runJob(countJob(control, sink), { checkpointing: settings({ storage }) });
    await waitUntil(() => sink.writtenBy(0) === 500);
    storage.fail('write', '', new Error("ENOENT: no such file or directory, open 'chk-1/state'"));
    for (const d of job.deployed) if (d.isSource) d.task.triggerCheckpoint(1, 1000);
    notifyAborted(job, 1);
    await waitUntil(() => storage.log.some((line) => line.startsWith('write chk-1/')));
    // A decline would follow the failed write within a few turns of the event loop.
    for (let turn = 0; turn < 200; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(job.declines).toEqual([]);
    storage.heal();
    expect(await checkpoint(job, 2)).toBe('acked');
    await Promise.all(job.deployed.map((d) => d.task.cancel()));
  });

  it('declines SNAPSHOT_FAILED when a function snapshotState throws, sends a cancel marker downstream, and keeps running', async () => {
    let failNext = true;
    class Flaky implements MapFunction<string, string>, CheckpointedFunction {
      initializeState(): void {}
      snapshotState(): void {
        if (failNext) {
          failNext = false;
          throw new Error('cannot snapshot now');
        }
      }
      map(value: string): string {
        return value;
      }
    }
    const sink = new CollectingSink<[string, number]>();
    const control = new SourceControl(300);
    const job = await runJob(
      (env) => {
        env.setParallelism(2);
        env
          .fromSource(listSource(WORDS, control), 'words')
          .map(new Flaky())
          .name('Flaky')
          .keyBy((w) => w)
          .process(new CountPerKey())
          .name('Count')
          .sinkTo(sink);
      },
      { checkpointing: settings({}) },
    );
    await waitUntil(() => sink.records.length === 600);
    expect(await checkpoint(job, 1)).toBe('declined');
    const flaky = job.declines.find((d) => d.decline.reason === 'CHECKPOINT_SNAPSHOT_FAILED')!;
    expect(flaky.decline.message).toMatch(/^the snapshot failed: Flaky \([12]\/2\) failed: cannot snapshot now/);
    // Both Count subtasks got the cancel marker from that subtask instead of its barrier.
    await waitUntil(() => job.declines.filter((d) => d.decline.reason === 'CHECKPOINT_DECLINED').length === 2);
    for (const d of job.declines.filter((x) => x.decline.reason === 'CHECKPOINT_DECLINED')) {
      expect(d.decline.message).toContain('checkpoint 1 was cancelled upstream: words -> Flaky subtask');
    }
    control.release(600);
    await waitUntil(() => sink.records.length === 1200);
    expect(await checkpoint(job, 2)).toBe('acked');
    expect(job.deployed.every((d) => d.task.state === 'RUNNING')).toBe(true);
    await Promise.all(job.deployed.map((d) => d.task.cancel()));
  });

  it('declines TASK_NOT_READY on a non-source task whose input goes on, and without checkpointing', async () => {
    const withCheckpoints = await runJob(countJob(new SourceControl(10), new TransactionalSink()), { checkpointing: settings({}) });
    const without = await runJob(countJob(new SourceControl(10), new TransactionalSink()));
    await waitUntil(() => [...withCheckpoints.deployed, ...without.deployed].every((d) => d.task.state === 'RUNNING'));
    withCheckpoints.deployed[1]!.task.triggerCheckpoint(4, 0);
    without.deployed[0]!.task.triggerCheckpoint(5, 0);
    await waitUntil(() => withCheckpoints.declines.length === 1 && without.declines.length === 1);
    expect(withCheckpoints.declines[0]!.decline).toEqual({
      checkpointId: 4,
      reason: 'CHECKPOINT_TASK_NOT_READY',
      message: expect.stringMatching(/^its input has not ended/),
    });
    expect(without.declines[0]!.decline.message).toBe('checkpointing is not enabled for it');
    await Promise.all([...withCheckpoints.deployed, ...without.deployed].map((d) => d.task.cancel()));
  });
});

describe('failed restores', () => {
  it('fails the task with CHECKPOINT_RESTORE_FAILED naming the missing file and the checkpoint', async () => {
    const storage = new MemoryStorage();
    const sink = new TransactionalSink<[string, number]>();
    const control = new SourceControl(100);
    const job = await runJob(countJob(control, sink), { checkpointing: settings({ storage }) });
    await waitUntil(() => sink.writtenBy(0) === 100);
    expect(await checkpoint(job, 7)).toBe('acked');
    await Promise.all(job.deployed.map((d) => d.task.cancel()));
    const countId = job.jobGraph.vertices[1]!.operators[0]!.operatorId;
    await storage.delete(`chk-7/${countId}-0-keyed`);

    const restored = await runJob(countJob(control, sink), { checkpointing: settings({ storage }), restore: restoreFrom(job, 7, storage), attempt: 1 });
    const count = restored.deployed[1]!.task;
    await waitUntil(() => count.state === 'FAILED');
    expect(states(restored.changes.get(count))).toEqual(['INITIALIZING', 'FAILED']);
    const failure = restored.changes.get(count)!.at(-1)!.failure!;
    expect(failure.code).toBe('CHECKPOINT_RESTORE_FAILED');
    expect(failure.message).toBe(
      `cannot restore keyed state of Count (1/1) from checkpoint 7: reading ${countId}-0-keyed in memory:///chk-7 failed: ` +
        `no file at memory:///chk-7/${countId}-0-keyed: it does not exist [STORAGE_NOT_FOUND]`,
    );
    await Promise.all(restored.deployed.map((d) => d.task.cancel()));
  });
});
