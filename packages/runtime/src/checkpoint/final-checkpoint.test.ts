import type { StreamExecutionEnvironment } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { checkpoint, notifyComplete } from '../testing/checkpoints.ts';
import { CountPerKey, expectedCountRecords, listSource, sortRecords, SourceControl, TransactionalSink } from '../testing/checkpoint-fixtures.ts';
import { runJob, states, waitUntil } from '../testing/harness.ts';
import { MemoryStorage } from '@weir/storage/testing';
import type { TaskCheckpointing } from './types.ts';
import { CHECKPOINTING_DEFAULTS } from '../testing/checkpointing-defaults.ts';

const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i % 41}`);

function countJob(control: SourceControl, sink: TransactionalSink<[string, number]>) {
  return (env: StreamExecutionEnvironment): void => {
    env.setParallelism(2);
    env
      .fromSource(listSource(WORDS, control), 'words')
      .keyBy((w) => w)
      .process(new CountPerKey())
      .sinkTo(sink);
  };
}

const checkpointing: TaskCheckpointing = {
  mode: 'EXACTLY_ONCE',
  backend: 'filesystem',
  storage: new MemoryStorage(),
  maxInlineBytes: 0,
  asyncSnapshots: true,
  ...CHECKPOINTING_DEFAULTS,
};

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the final checkpoint of a bounded job', () => {
  it('finishes only after a checkpoint taken after the end of input completed, committing every record once', async () => {
    const sink = new TransactionalSink<[string, number]>();
    const control = new SourceControl(500);
    const job = await runJob(countJob(control, sink), { checkpointing });
    await waitUntil(() => sink.writtenBy(0) === 1000);
    expect(await checkpoint(job, 1)).toBe('acked');

    control.release(Number.MAX_SAFE_INTEGER, true);
    await waitUntil(() => sink.flushes.filter((f) => f.endsWith('flush(true)')).length === 2);
    expect(sink.writtenBy(0)).toBe(WORDS.length);
    await turns(200);
    expect(job.deployed.map((d) => d.task.state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);
    // Each task told the JobManager it waits, having taken checkpoint 1 before its end: checkpoint 2 is final for it.
    expect(job.deployed.map((d) => job.awaitingFinal.get(d.task))).toEqual(Array(4).fill({ lastCheckpointBeforeEnd: 1 }));

    // Checkpoint 1 was taken before the end of input: completing it commits its records but ends nothing.
    notifyComplete(job, 1);
    await waitUntil(() => sink.committed.length === 1000);
    await turns(200);
    expect(job.deployed.map((d) => d.task.state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);

    expect(await checkpoint(job, 2)).toBe('acked');
    await turns(200);
    expect(job.deployed.map((d) => d.task.state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);
    notifyComplete(job, 2);
    await job.whenAllTerminal();
    for (const d of job.deployed) expect(states(job.changes.get(d.task))).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED']);
    expect(sortRecords(sink.committed)).toEqual(expectedCountRecords(WORDS));
    expect(sink.committed).toHaveLength(WORDS.length);
    expect(sink.commits.map((c) => c.map((id) => id.split('-')[2]))).toEqual([['1'], ['1'], ['2'], ['2']]);
    // Each writer flushed at end of input, then for checkpoint 2 only (checkpoint 1 came before the end).
    expect(sink.flushes.filter((f) => f.startsWith('0 '))).toEqual(['0 flush(false)', '0 flush(true)', '0 flush(false)']);
  });

  it('without checkpointing ends at once and commits the last committables at end of input', async () => {
    const sink = new TransactionalSink<[string, number]>();
    const job = await runJob(countJob(new SourceControl(Number.MAX_SAFE_INTEGER, true), sink));
    await job.whenAllTerminal();
    expect(job.deployed.map((d) => d.task.state)).toEqual(['FINISHED', 'FINISHED', 'FINISHED', 'FINISHED']);
    expect(job.awaitingFinal.size).toBe(0);
    expect(sortRecords(sink.committed)).toEqual(expectedCountRecords(WORDS));
    expect(sink.commits.map((c) => c.map((id) => id.split('-')[2]))).toEqual([[String(Number.MAX_SAFE_INTEGER)], [String(Number.MAX_SAFE_INTEGER)]]);
  });
});
