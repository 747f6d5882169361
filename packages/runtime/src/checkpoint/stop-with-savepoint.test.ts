import type { StreamExecutionEnvironment } from '@weir/api';
import type { CheckpointOptions } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { checkpoint, notifyComplete } from '../testing/checkpoints.ts';
import { CountPerKey, expectedCountRecords, listSource, sortRecords, SourceControl, TransactionalSink } from '../testing/checkpoint-fixtures.ts';
import { unalignedMemoryCheckpointing } from '../testing/checkpointing-defaults.ts';
import { runJob, states, waitUntil, type RunningJob } from '../testing/harness.ts';

const WORDS = Array.from({ length: 2000 }, (_, i) => `w${i % 31}`);

const checkpointing = unalignedMemoryCheckpointing();

function countJob(control: SourceControl, sink: TransactionalSink<[string, number]>) {
  return (env: StreamExecutionEnvironment): void => {
    env.setParallelism(2);
    env.fromSource(listSource(WORDS, control), 'words').keyBy((w) => w).process(new CountPerKey()).sinkTo(sink);
  };
}

/** Triggers a savepoint at the sources as the JobManager's stop does, and waits for every task's acknowledgement. */
async function savepoint(job: RunningJob, checkpointId: number, options: CheckpointOptions): Promise<void> {
  for (const d of job.deployed) if (d.isSource) d.task.triggerCheckpoint(checkpointId, checkpointId * 1000, options);
  await waitUntil(() => job.deployed.every((d) => job.acks.get(checkpointId)?.has(d.task) === true) || job.declines.length !== 0);
  expect(job.declines).toEqual([]);
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('stop with savepoint, the sources', () => {
  it('drain: end their input first (operators finish, end of data), then take the savepoint, which is the final checkpoint', async () => {
    const sink = new TransactionalSink<[string, number]>();
    const job = await runJob(countJob(new SourceControl(600), sink), { checkpointing });
    await waitUntil(() => sink.writtenBy(0) === 1200);
    await savepoint(job, 1, { type: 'savepoint', terminate: 'drain', targetLocation: 'file:///tmp/sp' });
    // The writers flushed at their end of input before the savepoint's snapshot.
    expect(sink.flushes.filter((f) => f.startsWith('0 '))).toEqual(['0 flush(true)', '0 flush(false)']);
    expect(job.deployed.map((d) => d.task.state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);
    expect([...job.acks.get(1)!.values()].map((a) => a.metrics.unaligned)).toEqual([false, false, false, false]);
    notifyComplete(job, 1);
    await job.whenAllTerminal();
    for (const d of job.deployed) expect(states(job.changes.get(d.task))).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED']);
    expect(sortRecords(sink.committed)).toEqual(expectedCountRecords(WORDS.filter((_, i) => Math.floor(i / 2) < 600)));
  });

  it('suspend: take the savepoint, then end their input without another record; the tasks finish after the next checkpoint', async () => {
    const sink = new TransactionalSink<[string, number]>();
    const control = new SourceControl(600);
    const job = await runJob(countJob(control, sink), { checkpointing });
    await waitUntil(() => sink.writtenBy(0) === 1200);
    await savepoint(job, 1, { type: 'savepoint', terminate: 'suspend' });
    expect(sink.flushes.filter((f) => f.startsWith('0 '))).toEqual(['0 flush(false)', '0 flush(true)']);
    // More input would be there, but the sources ended.
    control.release(1000);
    notifyComplete(job, 1);
    await turns(200);
    expect(sink.writtenBy(0)).toBe(1200);
    expect(job.deployed.map((d) => d.task.state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);
    expect(await checkpoint(job, 2)).toBe('acked');
    notifyComplete(job, 2);
    await job.whenAllTerminal();
    for (const d of job.deployed) expect(states(job.changes.get(d.task))).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED']);
    expect(sortRecords(sink.committed)).toEqual(expectedCountRecords(WORDS.filter((_, i) => Math.floor(i / 2) < 600)));
  });
});
