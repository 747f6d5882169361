import type { SinkWriter, StreamExecutionEnvironment } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { checkpoint, checkpointUntilDone, notifyComplete, restoreFrom } from '../testing/checkpoints.ts';
import { CountPerKey, expectedCountRecords, listSource, sortRecords, SourceControl, TransactionalSink } from '../testing/checkpoint-fixtures.ts';
import { testCheckpointing, unalignedMemoryCheckpointing } from '../testing/checkpointing-defaults.ts';
import { runJob, states, waitUntil } from '../testing/harness.ts';
import { MemoryStorage } from '@weir/storage/testing';

const WORDS = Array.from({ length: 3000 }, (_, i) => `w${(i * 7) % 53}`);

/** A TransactionalSink whose writes stall (a pending write stops the task) while `closed`, so its input backs up. */
class StallingSink extends TransactionalSink<[string, number]> {
  closed = false;
  #waiters: (() => void)[] = [];

  open(): void {
    this.closed = false;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  override createWriter(ctx: { subtaskIndex: number; attemptNumber: number }, restoredState?: readonly unknown[]): SinkWriter<[string, number]> {
    const writer = super.createWriter(ctx, restoredState);
    const write = writer.write.bind(writer);
    return {
      ...writer,
      write: (record) => {
        write(record);
        if (this.closed) return new Promise<void>((resolve) => this.#waiters.push(resolve));
      },
    };
  }
}

function countJob(control: SourceControl, sink: TransactionalSink<[string, number]>) {
  return (env: StreamExecutionEnvironment): void => {
    env.setParallelism(2);
    // One record per buffer: many small buffers in flight, as under backpressure with large records.
    env.setBufferTimeout(0);
    env.fromSource(listSource(WORDS, control), 'words').keyBy((w) => w).process(new CountPerKey()).name('Count').sinkTo(sink);
  };
}

describe('unaligned checkpoints', () => {
  it('snapshot a backpressured job with its in-flight buffers, and a restore replays them to exactly the expected output', async () => {
    const storage = new MemoryStorage();
    const checkpointing = testCheckpointing({ storage, maxInlineBytes: 0, unaligned: true });
    const sink = new StallingSink();
    sink.closed = true;
    const control = new SourceControl(Number.MAX_SAFE_INTEGER);
    const first = await runJob(countJob(control, sink), { checkpointing });
    const [source, count] = first.jobGraph.vertices;
    const sources = first.tasks.get(source!.name)!;
    // Backpressured: the sinks stall, their channels hold all the credit, the sources' queues are full.
    await waitUntil(() => sources.every((t) => t.networkStats.queuedOutputBuffers >= 4));
    const taken = checkpoint(first, 1);
    await new Promise((resolve) => setImmediate(resolve));
    sink.open();
    expect(await taken).toBe('acked');
    const acks = [...first.acks.get(1)!.values()];
    expect(acks.map((a) => a.metrics.unaligned)).toEqual([true, true, true, true]);
    for (const task of [...sources, ...first.tasks.get(count!.name)!]) {
      const ack = first.acks.get(1)!.get(task)!;
      expect(ack.metrics.persistedBytes).toBeGreaterThan(0);
      const head = task === sources[0] || task === sources[1] ? source!.operators[0]!.operatorId : count!.operators[0]!.operatorId;
      const channel = ack.state.operators[head]!.channel!;
      expect(channel.channels.every((c) => c.direction === (head === source!.operators[0]!.operatorId ? 'output' : 'input'))).toBe(true);
      expect(channel.handle).toMatchObject({ kind: 'file', path: `${head}-${first.deployed.find((d) => d.task === task)!.subtask}-channel` });
    }
    // Data flows on after checkpoint 1; then the job fails before it is notified.
    await waitUntil(() => sink.writtenBy(0) >= 2000);
    await Promise.all(first.deployed.map((d) => d.task.cancel()));
    expect(sink.committed).toEqual([]);

    const second = await runJob(countJob(new SourceControl(Number.MAX_SAFE_INTEGER, true), sink), {
      checkpointing,
      restore: restoreFrom(first, 1, storage),
      attempt: 1,
    });
    await checkpointUntilDone(second, 2);
    for (const d of second.deployed) expect(states(second.changes.get(d.task))).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED']);
    expect(sortRecords(sink.committed)).toEqual(expectedCountRecords(WORDS));
    expect(sink.committed).toHaveLength(WORDS.length);
  });

  it('keep every checkpoint aligned when the barriers align within the aligned-checkpoint timeout', async () => {
    const checkpointing = unalignedMemoryCheckpointing({ alignedCheckpointTimeoutMs: 60_000 });
    const sink = new TransactionalSink<[string, number]>();
    const job = await runJob(countJob(new SourceControl(1000), sink), { checkpointing });
    await waitUntil(() => sink.writtenBy(0) === 2000);
    expect(await checkpoint(job, 1)).toBe('acked');
    notifyComplete(job, 1);
    expect([...job.acks.get(1)!.values()].map((a) => [a.metrics.unaligned, a.metrics.persistedBytes])).toEqual([
      [false, 0],
      [false, 0],
      [false, 0],
      [false, 0],
    ]);
    await Promise.all(job.deployed.map((d) => d.task.cancel()));
  });
});
