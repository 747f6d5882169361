import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import type { ProducerMessage } from '@weir/rpc';
import type { ChannelItem, SubpartitionId } from '@weir/runtime';
import { FakePartitions } from '../testing/fake-partitions.ts';
import { silentLogger } from '@weir/common/testing';
import { SubscribeSession, type ProducerStream } from './subscribe-session.ts';

const id: SubpartitionId = {
  jobId: 'j',
  attempt: 0,
  producerVertexId: 'p',
  producerSubtask: 0,
  consumerVertexId: 'c',
  consumerInput: 0,
  consumerSubtask: 1,
};

const subscribe = {
  kind: 'subscribe' as const,
  subscribe: { ...id, initialCredit: 2, consumerDataAddress: 'consumer:1' },
};

function credit(buffers: number) {
  return { kind: 'credit' as const, credit: { buffers } };
}

/** A ProducerStream whose buffer is "full" while `full` is true. */
class FakeStream implements ProducerStream {
  readonly written: ProducerMessage[] = [];
  full = false;
  ended = false;
  failure: Error | undefined;
  #drain: (() => void) | undefined;

  write(message: ProducerMessage): boolean {
    this.written.push(message);
    return !this.full;
  }

  onDrain(callback: () => void): void {
    this.#drain = callback;
  }

  drain(): void {
    this.full = false;
    const drain = this.#drain;
    this.#drain = undefined;
    drain?.();
  }

  end(): void {
    this.ended = true;
  }

  fail(error: Error): void {
    this.failure = error;
  }
}

const buffers = (n: number): ChannelItem[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'buffer', payload: Uint8Array.of(i), recordCount: 1 }));

describe('SubscribeSession', () => {
  it('holds back credit while the call buffer is full and passes it on at drain', () => {
    const partitions = new FakePartitions();
    partitions.serve(id, () => ({ items: [...buffers(6), { kind: 'end-of-partition' }] }));
    const stream = new FakeStream();
    const session = new SubscribeSession(stream, partitions, silentLogger());

    stream.full = true;
    session.onMessage(subscribe);
    expect(stream.written).toHaveLength(2);

    session.onMessage(credit(1));
    session.onMessage(credit(2));
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([2]);
    expect(stream.written).toHaveLength(2);

    stream.drain();
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([2, 3]);
    expect(stream.written).toHaveLength(5);

    session.onMessage(credit(5));
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([2, 3, 5]);
    expect(stream.written.map((m) => (m.buffer ? 'buffer' : 'eop'))).toEqual([
      'buffer', 'buffer', 'buffer', 'buffer', 'buffer', 'buffer', 'eop',
    ]);
    expect(stream.ended).toBe(true);
    expect(partitions.subscriptions[0]!.closed).toBe(true);
  });

  it('closes the subscription when the consumer goes away', () => {
    const partitions = new FakePartitions();
    partitions.serve(id, () => ({ items: buffers(10) }));
    const stream = new FakeStream();
    const session = new SubscribeSession(stream, partitions, silentLogger());
    session.onMessage(subscribe);
    session.onConsumerGone();
    session.onMessage(credit(4));
    expect(partitions.subscriptions[0]!.closed).toBe(true);
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([2]);
    expect(stream.failure).toBeUndefined();
  });

  it('fails the call on a second subscribe and closes the first subscription', () => {
    const partitions = new FakePartitions();
    partitions.serve(id, () => ({ items: buffers(10) }));
    const stream = new FakeStream();
    const session = new SubscribeSession(stream, partitions, silentLogger());
    session.onMessage(subscribe);
    session.onMessage(subscribe);
    expect(isWeirError(stream.failure, 'SUBSCRIBE_PROTOCOL_VIOLATION')).toBe(true);
    expect(stream.failure!.message).toBe(
      'DataExchange.Subscribe: expected `credit` or `unsubscribe` after `subscribe`, got subscribe; a consumer sends one `subscribe`, then only `credit` and at last `unsubscribe`',
    );
    expect(partitions.subscriptions).toHaveLength(1);
    expect(partitions.subscriptions[0]!.closed).toBe(true);
  });

  it('closes a subscription whose end of partition came before subscribe returned', () => {
    const partitions = new FakePartitions();
    partitions.serve(id, () => ({ items: [{ kind: 'end-of-partition' }] }));
    const stream = new FakeStream();
    new SubscribeSession(stream, partitions, silentLogger()).onMessage(subscribe);
    expect(stream.written).toEqual([{ endOfPartition: {} }]);
    expect(stream.ended).toBe(true);
    expect(partitions.subscriptions[0]!.closed).toBe(true);
  });
});
