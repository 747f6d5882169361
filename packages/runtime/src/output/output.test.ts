import { keyGroupForKey, subtaskForKeyGroup } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { RecordCodec } from '../codec/record-codec.ts';
import { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import { OutputAvailability } from '../network/output-availability.ts';
import { ResultPartition } from '../network/result-partition.ts';
import type { BufferItem } from '../network/types.ts';
import { FailureWrapper } from '../operators/operator-failure.ts';
import { RecordTimestamp } from '../time/record-timestamp.ts';
import { RebalanceSelector, type ChannelSelector } from './channel-selectors.ts';
import { neverFlushTimer, type FlushTimer } from './flush-timer.ts';
import { OutputBatch, type BatchOptions, type BufferTarget } from './output-batch.ts';
import { KeyedRecordWriter } from './record-writers.ts';

const codec = new RecordCodec(undefined, "'Next'");

function options(overrides: Partial<BatchOptions> = {}): BatchOptions {
  return { timer: neverFlushTimer, targetBytes: 1 << 20, objectReuse: false, timestamp: new RecordTimestamp(), metrics: new TaskIOMetrics(), ...overrides };
}

function collectingTarget(takesObjects = false) {
  const buffers: { records: unknown[]; bytes: number; objects: boolean }[] = [];
  const target: BufferTarget = {
    takesObjects,
    addBufferItem(buffer: BufferItem) {
      const objects = buffer.batch !== undefined;
      const records = buffer.batch?.records ?? codec.decode(buffer.payload).records;
      expect(records).toHaveLength(buffer.recordCount);
      buffers.push({ records, bytes: objects ? 0 : buffer.payload.byteLength, objects });
    },
  };
  return { buffers, target };
}

describe('OutputBatch', () => {
  it('sends one record first, then sizes batches from the bytes per record of the previous buffer', () => {
    const target = collectingTarget();
    const batch = new OutputBatch(target.target, codec, false, options({ targetBytes: 1014 }));
    const record = 'r'.repeat(97); // a 99-byte MessagePack str8: 105 bytes with the array header and the buffer's 5-byte header; 9 records take 897 bytes, so then 10 fit in 1014
    for (let i = 0; i < 25; i++) batch.add(record, false);
    expect(target.buffers.map((b) => b.records.length)).toEqual([1, 9, 10]);
    expect(Math.max(...target.buffers.map((b) => b.bytes))).toBeLessThanOrEqual(1014);
    batch.flush();
    expect(target.buffers.map((b) => b.records.length)).toEqual([1, 9, 10, 5]);
    batch.add(record, false);
    batch.flush();
    expect(target.buffers).toHaveLength(5);
  });

  it('flushes every record when the target size is 0 (buffer timeout 0)', () => {
    const target = collectingTarget();
    const batch = new OutputBatch(target.target, codec, false, options({ targetBytes: 0 }));
    for (const r of [{ a: 1 }, [2], 'three', null]) batch.add(r, false);
    expect(target.buffers.map((b) => b.records)).toEqual([[{ a: 1 }], [[2]], ['three'], [null]]);
  });

  it("writes each record's timestamp with it, none for a batch without any", () => {
    const payloads: Uint8Array[] = [];
    const slot = new RecordTimestamp();
    const batch = new OutputBatch({ takesObjects: false, addBufferItem: (b) => payloads.push(b.payload) }, codec, false, options({ timestamp: slot }));
    batch.add('a', false);
    batch.add('b', false);
    slot.value = 1_000;
    batch.add('c', false);
    slot.value = undefined;
    batch.add('d', false);
    slot.value = Number.POSITIVE_INFINITY;
    batch.add('e', false);
    batch.flush();
    batch.add('f', false);
    batch.flush();
    const [first, second, third] = payloads.map((p) => codec.decode(p));
    expect(first).toEqual({ records: ['a'], keyGroups: undefined, timestamps: undefined });
    expect(second!.records).toEqual(['b', 'c', 'd', 'e']);
    expect(Array.from(second!.timestamps!)).toEqual([Number.NaN, 1_000, Number.NaN, Number.POSITIVE_INFINITY]);
    expect(third!.records).toEqual(['f']);
    expect(Array.from(third!.timestamps!)).toEqual([Number.POSITIVE_INFINITY]);
  });

  it('arms the buffer timeout when a batch gets its first record', () => {
    let armed = 0;
    const timer: FlushTimer = { arm: () => armed++, cancel: () => {} };
    const batch = new OutputBatch(collectingTarget().target, codec, false, options({ timer }));
    batch.add(1, false); // the first buffer holds one record: flushed at once, nothing to time out
    batch.add(2, false);
    batch.add(3, false);
    expect(armed).toBe(1);
  });

  it('under object reuse, hands a consumer in this process the records themselves, and encodes them only when asked', () => {
    const local = collectingTarget(true);
    const batch = new OutputBatch(local.target, codec, false, options({ objectReuse: true }));
    const records = [{ n: 1 }, { n: -0 }, { n: 3 }];
    batch.add(records[0], false);
    batch.add(records[1], codec.check(records[1]));
    batch.add(records[2], false);
    batch.flush();
    expect(local.buffers.map((b) => [b.objects, b.records.length])).toEqual([
      [true, 1],
      [true, 2],
    ]);
    expect(local.buffers[1]!.records[0]).toBe(records[1]);
    const captured: BufferItem[] = [];
    const capture = new OutputBatch({ takesObjects: true, addBufferItem: (b) => captured.push(b) }, codec, false, options({ objectReuse: true }));
    capture.add(records[1], true);
    // An unaligned checkpoint stores it as bytes: encoded then, -0 kept.
    expect(Object.is((codec.decode(captured[0]!.payload).records[0] as { n: number }).n, -0)).toBe(true);
    const remote = collectingTarget(false);
    const encoding = new OutputBatch(remote.target, codec, false, options({ objectReuse: true }));
    encoding.add(records[0], false);
    expect(remote.buffers.map((b) => b.objects)).toEqual([false]);
  });
});

describe('channel selectors', () => {
  it('rebalances round-robin starting at the producer subtask', () => {
    const selector: ChannelSelector = new RebalanceSelector(3, 4);
    expect(Array.from({ length: 5 }, () => selector.select(undefined))).toEqual([1, 2, 0, 1, 2]);
  });
});

describe('KeyedRecordWriter', () => {
  function keyedWriter(key: (r: unknown) => unknown, label = 'Map (1/1)') {
    const partition = new ResultPartition(
      { jobId: 'j', attempt: 0, producerVertexId: 'p', producerSubtask: 0, consumerVertexId: 'c', consumerInput: 0 },
      3,
      new OutputAvailability(),
      1_000,
    );
    const received: { records: unknown[]; keyGroups: number[] }[][] = [[], [], []];
    partition.subpartitions.forEach((s, i) =>
      s.subscribe(1_000, {
        onItem: (item) => {
          if (item.kind !== 'buffer') return;
          const { records, keyGroups } = codec.decode(item.payload);
          received[i]!.push({ records, keyGroups: Array.from(keyGroups!) });
        },
        onError: () => {},
      }),
    );
    const writer = new KeyedRecordWriter(partition, key, 256, codec, new FailureWrapper(label), options());
    return { writer, received };
  }

  it('routes by key group with the consumer max parallelism, and sends the key group along', () => {
    const { writer, received } = keyedWriter((r) => (r as { k: string }).k);
    for (let i = 0; i < 200; i++) writer.collect({ k: `key${i}` });
    writer.flush();
    for (let i = 0; i < 200; i++) {
      const keyGroup = keyGroupForKey(`key${i}`, 256);
      const buffers = received[subtaskForKeyGroup(256, 3, keyGroup)]!;
      const found = buffers.flatMap((b) => b.records.map((r, j) => [r, b.keyGroups[j]])).find(([r]) => (r as { k: string }).k === `key${i}`);
      expect(found?.[1]).toBe(keyGroup);
    }
  });

  it('blames a throwing key selector and a refused record on the emitting operator', () => {
    const throwing = keyedWriter(() => {
      throw new Error('no key');
    }, 'Map (2/2)');
    expect(() => throwing.writer.collect({})).toThrow(/^Map \(2\/2\) failed: no key\n/);
    const { writer } = keyedWriter((r) => (r as { k: string }).k, 'Map (2/2)');
    expect(() => writer.collect({ k: 'a', f: () => 1 })).toThrow(/^Map \(2\/2\) failed: cannot send a record to 'Next' unchanged: field 'f' is a function/);
  });
});
