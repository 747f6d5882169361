import { describe, expect, it } from 'vitest';
import { RecordCodec } from '../codec/record-codec.ts';
import { InputChannel, type ChannelOwner } from '../input/input-channel.ts';
import { unalignedBarrierEvent } from './channel-events.ts';
import { encodedNow, ObjectBuffer } from './object-buffer.ts';
import { OutputAvailability } from './output-availability.ts';
import { ResultSubpartition } from './result-subpartition.ts';
import type { BufferItem, ChannelItem } from './types.ts';

type Counter = { key: string; n: number };

const codec = new RecordCodec(undefined, "'Consumer'");

/** An ObjectBuffer of two records, as a local channel under object reuse hands them over. */
function objectBuffer(): { buffer: ObjectBuffer; records: Counter[] } {
  const records: Counter[] = [
    { key: 'a', n: 1 },
    { key: 'b', n: 2 },
  ];
  return { buffer: new ObjectBuffer({ records, keyGroups: undefined, timestamps: undefined }, codec, false), records };
}

/** What a consumer may do to a record it received: change it in place (then emit it). */
function consume(records: Counter[]): void {
  for (const record of records) record.n += 100;
}

const decoded = (buffers: readonly BufferItem[]): unknown[] => buffers.flatMap((b) => new RecordCodec(undefined, "'Restore'").decode(b.payload).records);

const owner: ChannelOwner = { channelHasData: () => {}, channelHasPriorityEvent: () => {}, channelFailed: () => {} };

// Channel state is taken when buffers are overtaken or recorded, but written once every barrier
// arrived: by then a local consumer has processed (and may have changed) the very objects.
describe('channel state of buffers handed over as objects keeps the records as the producer emitted them', () => {
  it('encodedNow turns an ObjectBuffer into bytes of its records now, and leaves a byte buffer as it is', () => {
    const { buffer, records } = objectBuffer();
    const encoded = encodedNow(buffer);
    consume(records);
    expect(encoded.batch).toBeUndefined();
    expect(encoded.recordCount).toBe(2);
    expect(decoded([encoded])).toEqual([{ key: 'a', n: 1 }, { key: 'b', n: 2 }]);
    const bytes: BufferItem = { kind: 'buffer', payload: Uint8Array.of(1), recordCount: 1 };
    expect(encodedNow(bytes)).toBe(bytes);
  });

  it('output channel state: the buffers an unaligned barrier overtakes in a subpartition', () => {
    const subpartition = new ResultSubpartition('p', new OutputAvailability(), 10, () => {});
    const { buffer, records } = objectBuffer();
    subpartition.addBufferItem(buffer);
    const overtaken = subpartition.addPriorityEvent(unalignedBarrierEvent(1, 0));
    // The local consumer still gets the objects, after the barrier, and changes them.
    const received: ChannelItem[] = [];
    subpartition.subscribe(5, { local: true, onItem: (item) => received.push(item), onError: () => {} });
    expect(received.map((item) => item.kind)).toEqual(['barrier', 'buffer']);
    expect((received[1] as BufferItem).batch?.records).toBe(records);
    consume(records);
    expect(decoded(overtaken)).toEqual([{ key: 'a', n: 1 }, { key: 'b', n: 2 }]);
  });

  it('input channel state: the buffers an unaligned barrier overtakes in an input channel', () => {
    const channel = new InputChannel(0, 'producer subtask 0', owner, { vertexId: 'v', subtask: 0, input: 0 }, codec);
    const { buffer, records } = objectBuffer();
    channel.onItem(buffer);
    channel.onItem(unalignedBarrierEvent(1, 0));
    expect(channel.poll()?.kind).toBe('barrier');
    const overtaken = channel.takeOvertaken();
    expect((channel.poll() as BufferItem).batch?.records).toBe(records);
    consume(records);
    expect(decoded(overtaken)).toEqual([{ key: 'a', n: 1 }, { key: 'b', n: 2 }]);
  });

  it('input channel state: the buffers an input channel records up to its barrier, queued or arriving', () => {
    const channel = new InputChannel(0, 'producer subtask 0', owner, { vertexId: 'v', subtask: 0, input: 0 }, codec);
    const queued = objectBuffer();
    channel.onItem(queued.buffer);
    channel.startRecording(1);
    const arriving = objectBuffer();
    channel.onItem(arriving.buffer);
    for (const { records } of [queued, arriving]) {
      expect((channel.poll() as BufferItem).batch?.records).toBe(records);
      consume(records);
    }
    channel.onItem(unalignedBarrierEvent(1, 0));
    const recorded = channel.recorded()!;
    expect(recorded).toHaveLength(2);
    expect(decoded(recorded)).toEqual([{ key: 'a', n: 1 }, { key: 'b', n: 2 }, { key: 'a', n: 1 }, { key: 'b', n: 2 }]);
  });
});
