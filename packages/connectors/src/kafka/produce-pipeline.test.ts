import { describe, expect, it } from 'vitest';
import { ManualClock } from '@weir/common/testing';
import { ProducePipeline } from './produce-pipeline.ts';

interface Message {
  readonly value: Uint8Array;
}

/** A send the test answers: each request waits until `ack(i)` or `refuse(i, err)`. */
class FakeBroker {
  readonly requests: Message[][] = [];
  readonly #answers: { resolve: () => void; reject: (err: unknown) => void }[] = [];

  readonly send = (messages: Message[]): Promise<void> => {
    this.requests.push(messages);
    return new Promise<void>((resolve, reject) => this.#answers.push({ resolve, reject }));
  };

  async ack(index: number): Promise<void> {
    this.#answers[index]!.resolve();
    await settle();
  }

  async refuse(index: number, err: unknown): Promise<void> {
    this.#answers[index]!.reject(err);
    await settle();
  }

  sizes(): number[] {
    return this.requests.map((r) => r.length);
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function message(bytes = 4): Message {
  return { value: new Uint8Array(bytes) };
}

function pipeline(broker: FakeBroker, clock: ManualClock, limits: Partial<{ batchRecords: number; maxRequestRecords: number; maxRequestBytes: number }> = {}) {
  return new ProducePipeline<Message>({ send: broker.send, batchRecords: 3, lingerMs: 20, maxRequestRecords: 5, maxRequestBytes: 1 << 20, clock, ...limits });
}

describe('ProducePipeline', () => {
  it('sends an idle batch once it has batchRecords records, a smaller one after the linger time', () => {
    const broker = new FakeBroker();
    const clock = new ManualClock();
    const p = pipeline(broker, clock);
    p.add(message());
    p.add(message());
    clock.advance(19);
    expect(broker.requests).toHaveLength(0);
    clock.advance(1);
    expect(broker.sizes()).toEqual([2]);
  });

  it('goes out at once when batchRecords are reached', () => {
    const broker = new FakeBroker();
    const p = pipeline(broker, new ManualClock());
    for (let i = 0; i < 3; i++) p.add(message());
    expect(broker.sizes()).toEqual([3]);
  });

  it('keeps one request in flight; what queues meanwhile goes out in one request on its acknowledgement', async () => {
    const broker = new FakeBroker();
    const clock = new ManualClock();
    const p = pipeline(broker, clock);
    for (let i = 0; i < 3; i++) p.add(message());
    p.add(message());
    p.add(message());
    clock.advance(100);
    expect(broker.sizes()).toEqual([3]);
    await broker.ack(0);
    expect(broker.sizes()).toEqual([3, 2]);
  });

  it('splits what queued into requests of at most maxRequestRecords records and maxRequestBytes bytes', async () => {
    const broker = new FakeBroker();
    const p = pipeline(broker, new ManualClock(), { batchRecords: 1, maxRequestRecords: 3, maxRequestBytes: 100 });
    p.add(message());
    // 40 bytes each with framing: two fit in 100 bytes.
    for (let i = 0; i < 3; i++) p.add(message(24));
    await broker.ack(0);
    expect(broker.sizes()).toEqual([1, 2]);
    await broker.ack(1);
    expect(broker.sizes()).toEqual([1, 2, 1]);
  });

  it('asks the caller to wait once a full request waits behind the one in flight', async () => {
    const broker = new FakeBroker();
    const p = pipeline(broker, new ManualClock());
    for (let i = 0; i < 3; i++) expect(p.add(message())).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(p.add(message())).toBeUndefined();
    const wait = p.add(message());
    expect(wait).toBeInstanceOf(Promise);
    let resumed = false;
    void wait!.then(() => (resumed = true));
    await settle();
    expect(resumed).toBe(false);
    await broker.ack(0);
    expect(resumed).toBe(true);
    expect(broker.sizes()).toEqual([3, 5]);
  });

  it('flush sends what waits and resolves once everything is acknowledged', async () => {
    const broker = new FakeBroker();
    const p = pipeline(broker, new ManualClock());
    p.add(message());
    let flushed = false;
    const flushing = p.flush().then(() => (flushed = true));
    await settle();
    expect(broker.sizes()).toEqual([1]);
    p.add(message());
    await broker.ack(0);
    expect(flushed).toBe(false);
    expect(broker.sizes()).toEqual([1, 1]);
    await broker.ack(1);
    await flushing;
    expect(flushed).toBe(true);
  });

  it('a refused request fails the flush, and every later add', async () => {
    const broker = new FakeBroker();
    const p = pipeline(broker, new ManualClock());
    p.add(message());
    const flushing = p.flush();
    const refusal = new Error('NOT_ENOUGH_REPLICAS');
    await broker.refuse(0, refusal);
    await expect(flushing).rejects.toBe(refusal);
    expect(() => p.add(message())).toThrow(refusal);
    await expect(p.flush()).rejects.toBe(refusal);
  });

  it('close stops the linger timer, drops what waits and waits for the request in flight', async () => {
    const broker = new FakeBroker();
    const clock = new ManualClock();
    const p = pipeline(broker, clock);
    for (let i = 0; i < 4; i++) p.add(message());
    let closed = false;
    const closing = p.close().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false);
    await broker.ack(0);
    await closing;
    clock.advance(100);
    expect(broker.sizes()).toEqual([3]);
  });
});
