import { describe, expect, it } from 'vitest';
import { barrierEvent, END_OF_PARTITION, unalignedBarrierEvent } from './channel-events.ts';
import { OutputAvailability } from './output-availability.ts';
import { ResultSubpartition } from './result-subpartition.ts';
import type { ChannelItem } from './types.ts';

function setUp(queueLimit = 2) {
  const availability = new OutputAvailability();
  let ends = 0;
  const subpartition = new ResultSubpartition('p', availability, queueLimit, () => ends++);
  const received: ChannelItem[] = [];
  return { availability, subpartition, received, ends: () => ends };
}

const buffer = (n: number): Uint8Array => Uint8Array.of(n);

describe('ResultSubpartition', () => {
  it('sends buffers only against credit, and events right behind them without credit', () => {
    const { subpartition, received, ends } = setUp(10);
    for (let i = 1; i <= 3; i++) subpartition.addBuffer(buffer(i), i);
    subpartition.addEvent(END_OF_PARTITION);
    const subscription = subpartition.subscribe(1, { onItem: (item) => received.push(item), onError: () => {} });
    expect(received.map((i) => (i.kind === 'buffer' ? i.recordCount : i.kind))).toEqual([1]);
    subscription.addCredit(1);
    expect(received.map((i) => (i.kind === 'buffer' ? i.recordCount : i.kind))).toEqual([1, 2]);
    expect(ends()).toBe(0);
    subscription.addCredit(5);
    expect(received.map((i) => (i.kind === 'buffer' ? i.recordCount : i.kind))).toEqual([1, 2, 3, 'end-of-partition']);
    expect(ends()).toBe(1);
  });

  it('blocks the output while the queue is at its limit, and unblocks as the consumer drains it', () => {
    const { availability, subpartition } = setUp(2);
    subpartition.addBuffer(buffer(1), 1);
    expect(availability.blocked).toBe(0);
    subpartition.addBuffer(buffer(2), 1);
    expect(availability.blocked).toBe(1);
    subpartition.addBuffer(buffer(3), 1);
    expect(availability.blocked).toBe(1);
    const subscription = subpartition.subscribe(1, { onItem: () => {}, onError: () => {} });
    expect(subpartition.queuedBuffers).toBe(2);
    expect(availability.blocked).toBe(1);
    subscription.addCredit(1);
    expect(subpartition.queuedBuffers).toBe(1);
    expect(availability.blocked).toBe(0);
  });

  it('takes credit granted from inside onItem without recursing', () => {
    const { subpartition, received } = setUp(100);
    for (let i = 0; i < 50; i++) subpartition.addBuffer(buffer(i), 1);
    const subscription = subpartition.subscribe(0, {
      onItem: (item) => {
        received.push(item);
        subscription.addCredit(1);
      },
      onError: () => {},
    });
    subscription.addCredit(1);
    expect(received).toHaveLength(50);
  });

  it('stops sending to a closed subscription and fails a live one on release', () => {
    const { subpartition, received } = setUp(100);
    const errors: Error[] = [];
    const first = subpartition.subscribe(0, { onItem: (i) => received.push(i), onError: (e) => errors.push(e) });
    first.close();
    subpartition.addBuffer(buffer(1), 1);
    first.addCredit(1);
    expect(received).toEqual([]);
    subpartition.subscribe(1, { onItem: (i) => received.push(i), onError: (e) => errors.push(e) });
    expect(received).toHaveLength(1);
    subpartition.release(new Error('gone'));
    expect(errors.map((e) => e.message)).toEqual(['gone']);
  });
});

describe('ResultSubpartition priority events', () => {
  it('puts an unaligned barrier ahead of the buffers waiting for credit, behind earlier events, and returns the overtaken buffers', () => {
    const { subpartition, received } = setUp(10);
    subpartition.addBuffer(buffer(1), 1);
    subpartition.addEvent(barrierEvent(1, 0));
    subpartition.addBuffer(buffer(2), 2);
    subpartition.addBuffer(buffer(3), 3);
    const overtaken = subpartition.addPriorityEvent(unalignedBarrierEvent(2, 0));
    expect(overtaken.map((b) => b.recordCount)).toEqual([2, 3]);
    const subscription = subpartition.subscribe(1, { onItem: (item) => received.push(item), onError: () => {} });
    const kinds = () => received.map((i) => (i.kind === 'buffer' ? i.recordCount : `${i.kind} ${i.kind === 'barrier' ? i.checkpointId : ''}`));
    // With no credit left, the priority barrier still goes; the overtaken buffers follow it against credit.
    expect(kinds()).toEqual([1, 'barrier 1', 'barrier 2']);
    expect(subpartition.queuedBuffers).toBe(2);
    subscription.addCredit(2);
    expect(kinds()).toEqual([1, 'barrier 1', 'barrier 2', 2, 3]);
  });
});
