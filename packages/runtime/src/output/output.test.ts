import { keyGroupForKey, subtaskForKeyGroup } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { FailureWrapper } from '../operators/operator-failure.ts';
import { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import { decodeRecordBatch, decodeRecords } from '../network/record-codec.ts';
import { RecordTimestamp } from '../time/record-timestamp.ts';
import { HashSelector, RebalanceSelector, type ChannelSelector } from './channel-selectors.ts';
import { neverFlushTimer, type FlushTimer } from './flush-timer.ts';
import { OutputBatch } from './output-batch.ts';

function collectingTarget() {
  const buffers: { records: unknown[]; bytes: number }[] = [];
  return {
    buffers,
    addBuffer(payload: Uint8Array, recordCount: number) {
      const records = decodeRecords(payload);
      expect(records).toHaveLength(recordCount);
      buffers.push({ records, bytes: payload.byteLength });
    },
  };
}

describe('OutputBatch', () => {
  it('sends one record first, then sizes batches from the bytes per record of the previous buffer', () => {
    const target = collectingTarget();
    const batch = new OutputBatch(target, neverFlushTimer, 1000, new RecordTimestamp(), new TaskIOMetrics());
    const record = 'r'.repeat(97); // a 99-byte MessagePack str8: 100 bytes as the one record of an array, so 10 fit in 1000
    for (let i = 0; i < 25; i++) batch.add(record);
    expect(target.buffers.map((b) => b.records.length)).toEqual([1, 10, 10]);
    expect(Math.max(...target.buffers.map((b) => b.bytes))).toBeLessThanOrEqual(1000);
    batch.flush();
    expect(target.buffers.map((b) => b.records.length)).toEqual([1, 10, 10, 4]);
    batch.flush();
    expect(target.buffers).toHaveLength(4);
  });

  it('flushes every record when the target size is 0 (buffer timeout 0)', () => {
    const target = collectingTarget();
    const batch = new OutputBatch(target, neverFlushTimer, 0, new RecordTimestamp(), new TaskIOMetrics());
    for (const r of [{ a: 1 }, [2], 'three', null]) batch.add(r);
    expect(target.buffers.map((b) => b.records)).toEqual([[{ a: 1 }], [[2]], ['three'], [null]]);
  });

  it('writes each record\'s timestamp with it, none for a batch without any', () => {
    const payloads: Uint8Array[] = [];
    const slot = new RecordTimestamp();
    const batch = new OutputBatch({ addBuffer: (payload) => payloads.push(payload) }, neverFlushTimer, 1 << 20, slot, new TaskIOMetrics());
    batch.add('a');
    batch.add('b');
    slot.value = 1_000;
    batch.add('c');
    slot.value = undefined;
    batch.add('d');
    slot.value = Number.POSITIVE_INFINITY;
    batch.add('e');
    batch.flush();
    batch.add('f');
    batch.flush();
    const [first, second, third] = payloads.map(decodeRecordBatch);
    expect(first).toEqual({ records: ['a'], timestamps: undefined });
    expect(second!.records).toEqual(['b', 'c', 'd', 'e']);
    expect([...second!.timestamps!]).toEqual([Number.NaN, 1_000, Number.NaN, Number.POSITIVE_INFINITY]);
    expect(third!.records).toEqual(['f']);
    expect([...third!.timestamps!]).toEqual([Number.POSITIVE_INFINITY]);
  });

  it('arms the buffer timeout when a batch gets its first record', () => {
    let armed = 0;
    const timer: FlushTimer = { arm: () => armed++, cancel: () => {} };
    const batch = new OutputBatch(collectingTarget(), timer, 1 << 20, new RecordTimestamp(), new TaskIOMetrics());
    batch.add(1); // the first buffer holds one record: flushed at once, nothing to time out
    batch.add(2);
    batch.add(3);
    expect(armed).toBe(1);
  });
});

describe('channel selectors', () => {
  it('rebalances round-robin starting at the producer subtask', () => {
    const selector: ChannelSelector = new RebalanceSelector(3, 4);
    expect(Array.from({ length: 5 }, () => selector.select(undefined))).toEqual([1, 2, 0, 1, 2]);
  });

  it('hashes by key group with the consumer max parallelism', () => {
    const selector = new HashSelector((r) => (r as { k: string }).k, 256, 3, new FailureWrapper('Map (1/1)'));
    for (let i = 0; i < 200; i++) {
      expect(selector.select({ k: `key${i}` })).toBe(subtaskForKeyGroup(256, 3, keyGroupForKey(`key${i}`, 256)));
    }
  });

  it('blames a throwing key selector on the emitting operator', () => {
    const selector = new HashSelector(
      () => {
        throw new Error('no key');
      },
      128,
      2,
      new FailureWrapper('Map (2/2)'),
    );
    expect(() => selector.select({})).toThrow(/^Map \(2\/2\) failed: no key\n/);
  });
});
