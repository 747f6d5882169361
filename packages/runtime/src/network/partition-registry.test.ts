import { isWeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { describe, expect, it } from 'vitest';
import { END_OF_PARTITION } from './channel-events.ts';
import { OutputAvailability } from './output-availability.ts';
import { PartitionRegistry } from './partition-registry.ts';
import { ResultPartition } from './result-partition.ts';
import type { ChannelItem, ChannelListener, SubpartitionId } from './types.ts';

const ID: SubpartitionId = { jobId: 'job', attempt: 0, producerVertexId: 'src', producerSubtask: 1, consumerVertexId: 'dst', consumerInput: 0, consumerSubtask: 0 };

function partitionFor(id: SubpartitionId, consumers = 2): ResultPartition {
  const { consumerSubtask: _, ...partitionId } = id;
  return new ResultPartition(partitionId, consumers, new OutputAvailability(), 4);
}

class Recorder implements ChannelListener {
  readonly items: string[] = [];
  readonly errors: Error[] = [];
  onItem(item: ChannelItem): void {
    this.items.push(item.kind === 'buffer' ? `buffer:${item.recordCount}` : item.kind);
  }
  onError(error: Error): void {
    this.errors.push(error);
  }
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('PartitionRegistry', () => {
  it('lets a consumer subscribe before the producer registers, and delivers once it does', async () => {
    const clock = new ManualClock();
    const registry = new PartitionRegistry({ clock, subscribeTimeoutMs: 1000 });
    const listener = new Recorder();
    const subscription = registry.subscribe(ID, 2, listener);
    await flush();
    clock.advance(999);
    const partition = partitionFor(ID);
    partition.subpartitions[0]!.addBuffer(Uint8Array.of(0x90), 1);
    registry.register(partition);
    partition.subpartitions[0]!.addBuffer(Uint8Array.of(0x90), 2);
    partition.subpartitions[0]!.addBuffer(Uint8Array.of(0x90), 3);
    partition.subpartitions[0]!.addEvent(END_OF_PARTITION);
    expect(listener.items).toEqual(['buffer:1', 'buffer:2']);
    subscription.addCredit(1);
    expect(listener.items).toEqual(['buffer:1', 'buffer:2', 'buffer:3', 'end-of-partition']);
    clock.advance(10_000);
    expect(listener.errors).toEqual([]);
  });

  it('hands a registered partition to a new subscriber on a later tick, not inside subscribe()', async () => {
    const registry = new PartitionRegistry();
    const partition = partitionFor(ID);
    registry.register(partition);
    partition.subpartitions[0]!.addBuffer(Uint8Array.of(0x90), 1);
    const listener = new Recorder();
    registry.subscribe(ID, 1, listener);
    expect(listener.items).toEqual([]);
    await flush();
    expect(listener.items).toEqual(['buffer:1']);
  });

  it('fails a subscription with PARTITION_NOT_FOUND naming the subpartition when no producer registers in time', async () => {
    const clock = new ManualClock();
    const registry = new PartitionRegistry({ clock, subscribeTimeoutMs: 30_000 });
    const listener = new Recorder();
    registry.subscribe(ID, 4, listener);
    await flush();
    clock.advance(29_999);
    expect(listener.errors).toEqual([]);
    clock.advance(1);
    expect(listener.errors).toHaveLength(1);
    expect(isWeirError(listener.errors[0], 'PARTITION_NOT_FOUND')).toBe(true);
    expect(listener.errors[0]!.message).toBe(
      'no producer registered subpartition src[1] -> dst[0] of job job attempt 0 within 30000 ms; ' +
        'the producer task was not deployed to this TaskManager or failed before it started',
    );
    registry.register(partitionFor(ID));
    await flush();
    expect(listener.items).toEqual([]);
  });

  it('forgets a waiting subscription that is closed: no timeout error, no delivery', async () => {
    const clock = new ManualClock();
    const registry = new PartitionRegistry({ clock, subscribeTimeoutMs: 100 });
    const listener = new Recorder();
    registry.subscribe(ID, 4, listener).close();
    clock.advance(1000);
    const partition = partitionFor(ID);
    registry.register(partition);
    partition.subpartitions[0]!.addBuffer(Uint8Array.of(0x90), 1);
    await flush();
    expect(listener.items).toEqual([]);
    expect(listener.errors).toEqual([]);
  });

  it('releases an attempt: live and waiting subscribers get PARTITION_RELEASED, other attempts are untouched', async () => {
    const registry = new PartitionRegistry({ clock: new ManualClock() });
    const live = new Recorder();
    const waiting = new Recorder();
    const otherAttempt = new Recorder();
    registry.register(partitionFor(ID));
    registry.register(partitionFor({ ...ID, attempt: 1 }));
    registry.subscribe(ID, 1, live);
    registry.subscribe({ ...ID, producerVertexId: 'late' }, 1, waiting);
    registry.subscribe({ ...ID, attempt: 1 }, 1, otherAttempt);
    await flush();
    registry.releaseAttempt('job', 0);
    expect(live.errors.map((e) => isWeirError(e, 'PARTITION_RELEASED'))).toEqual([true]);
    expect(waiting.errors.map((e) => isWeirError(e, 'PARTITION_RELEASED'))).toEqual([true]);
    expect(otherAttempt.errors).toEqual([]);
  });

  it('rejects a second partition under the same name and a second subscriber of one subpartition', async () => {
    const registry = new PartitionRegistry();
    registry.register(partitionFor(ID));
    expect(() => registry.register(partitionFor(ID))).toThrow(/already registered/);
    const first = new Recorder();
    const second = new Recorder();
    const outOfRange = new Recorder();
    registry.subscribe(ID, 1, first);
    registry.subscribe(ID, 1, second);
    registry.subscribe({ ...ID, consumerSubtask: 5 }, 1, outOfRange);
    await flush();
    expect(first.errors).toEqual([]);
    expect(second.errors.map((e) => isWeirError(e, 'INVALID_SUBSCRIPTION'))).toEqual([true]);
    expect(outOfRange.errors[0]!.message).toContain('consumer subtask 5 is out of range');
  });
});
