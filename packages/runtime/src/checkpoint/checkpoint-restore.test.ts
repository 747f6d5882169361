import type { HeapKeyedStateHandle } from '@weir/common';
import type { StreamExecutionEnvironment } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { checkpoint, checkpointUntilDone, restoreFrom } from '../testing/checkpoints.ts';
import { CountingMap, CountPerKey, expectedCountRecords, listSource, sortRecords, SourceControl, TransactionalSink } from '../testing/checkpoint-fixtures.ts';
import { runJob, states, waitUntil } from '../testing/harness.ts';
import { MemoryStorage } from '@weir/storage/testing';
import type { TaskCheckpointing } from './types.ts';
import { CHECKPOINTING_DEFAULTS } from '../testing/checkpointing-defaults.ts';

const WORDS = Array.from({ length: 4000 }, (_, i) => `w${(i * 7) % 53}`);

function countJob(control: SourceControl, sink: TransactionalSink<[string, number]>, mapCounts: number[]) {
  return (env: StreamExecutionEnvironment): void => {
    env.setParallelism(2);
    env
      .fromSource(listSource(WORDS, control), 'words')
      .map(new CountingMap<string>(mapCounts))
      .name('Counting')
      .keyBy((w) => w)
      .process(new CountPerKey())
      .name('Count')
      .sinkTo(sink);
  };
}

describe('checkpoint and restore', () => {
  for (const variant of [
    { name: 'filesystem backend, async snapshots, exactly once', backend: 'filesystem', asyncSnapshots: true, mode: 'EXACTLY_ONCE' },
    { name: 'memory backend, synchronous snapshots, at least once', backend: 'memory', asyncSnapshots: false, mode: 'AT_LEAST_ONCE' },
  ] as const) {
    it(`continues a keyed count exactly after a failure: ${variant.name}`, async () => {
      const storage = new MemoryStorage();
      const checkpointing: TaskCheckpointing = {
        mode: variant.mode,
        backend: variant.backend,
        storage: variant.backend === 'memory' ? undefined : storage,
        maxInlineBytes: 5 * 1024 * 1024,
        asyncSnapshots: variant.asyncSnapshots,
        ...CHECKPOINTING_DEFAULTS,
      };
      const sink = new TransactionalSink<[string, number]>();
      const firstCounts: number[] = [];
      const control = new SourceControl(1000);
      const first = await runJob(countJob(control, sink, firstCounts), { checkpointing });
      await waitUntil(() => sink.writtenBy(0) === 2000);
      expect(await checkpoint(first, 1)).toBe('acked');
      // The JobManager fails before it notifies: nothing of checkpoint 1 is committed yet.
      control.release(1500);
      await waitUntil(() => sink.writtenBy(0) === 3000);
      await Promise.all(first.deployed.map((d) => d.task.cancel()));
      expect(sink.committed).toEqual([]);
      expect(firstCounts).toEqual([1500, 1500]);

      const acks = first.acks.get(1)!;
      const [source, count] = first.jobGraph.vertices;
      const countingId = source!.operators[1]!.operatorId;
      const countId = count!.operators[0]!.operatorId;
      const sinkId = count!.operators[1]!.operatorId;
      const sourceState = acks.get(first.task(source!.name, 0))!.state;
      expect(Object.keys(sourceState.operators).sort()).toEqual([source!.operators[0]!.operatorId, countingId].sort());
      const countState = acks.get(first.task(count!.name, 1))!.state;
      expect(Object.keys(countState.operators).sort()).toEqual([countId, sinkId].sort());
      expect(countState.operators[countId]!.keyed![0]!.states).toEqual({ count: { kind: 'value', type: { kind: 'NUMBER' } } });
      if (variant.backend === 'filesystem') {
        expect((countState.operators[countId]!.keyed![0] as HeapKeyedStateHandle).handle).toMatchObject({ kind: 'file', path: `${countId}-1-keyed` });
        expect(await storage.exists(`chk-1/${countId}-1-keyed`)).toBe(true);
        expect(await storage.exists(`chk-1/${sinkId}-1-operator`)).toBe(true);
      } else {
        expect((countState.operators[countId]!.keyed![0] as HeapKeyedStateHandle).handle.kind).toBe('inline');
        expect(storage.files.size).toBe(0);
      }

      const secondCounts: number[] = [];
      const second = await runJob(countJob(new SourceControl(Number.MAX_SAFE_INTEGER, true), sink, secondCounts), {
        checkpointing,
        restore: restoreFrom(first, 1, storage),
        attempt: 1,
      });
      await checkpointUntilDone(second, 2);
      for (const d of second.deployed) expect(states(second.changes.get(d.task))).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED']);
      // Restored, the sinks first committed what checkpoint 1 promised: the first 1000 records of each source subtask.
      expect(sink.commits[0]!.every((id) => id.startsWith('0-'))).toBe(true);
      expect(sink.restoredWith.slice(2)).toEqual([[{ prepared: 1 }], [{ prepared: 1 }]]);
      expect(sortRecords(sink.committed)).toEqual(expectedCountRecords(WORDS));
      expect(sink.committed).toHaveLength(WORDS.length);
      expect(secondCounts).toEqual([2000, 2000]);
    });
  }
});
