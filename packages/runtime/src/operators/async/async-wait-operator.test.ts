import { describe, expect, it } from 'vitest';
import {
  AsyncRetryStrategies,
  RetryPredicates,
  RichAsyncFunction,
  type AsyncFunction,
  type AsyncRetryStrategy,
  type AsyncWaitSettings,
  type ResultFuture,
} from '@weir/api';
import { OperatorHarness } from '../../testing/operator-harness.ts';
import type { OperatorStateStore } from '../../state/operator-state-store.ts';

/** An async function whose calls the test completes by hand. */
class Manual implements AsyncFunction<string, string> {
  readonly calls: { input: string; future: ResultFuture<string> }[] = [];
  asyncInvoke(input: string, future: ResultFuture<string>): void {
    this.calls.push({ input, future });
  }
  complete(input: string, results = [`${input}!`]): void {
    const call = this.calls.filter((c) => c.input === input).at(-1)!;
    call.future.complete(results);
  }
}

function settings(overrides: Partial<AsyncWaitSettings> = {}): AsyncWaitSettings {
  return { mode: 'ordered', timeoutMs: 1000, capacity: 10, retry: undefined, ...overrides };
}

async function harness(fn: AsyncFunction<unknown, unknown>, overrides: Partial<AsyncWaitSettings> = {}, lists?: OperatorStateStore): Promise<OperatorHarness> {
  const h = new OperatorHarness({ kind: 'asyncWait', fn, settings: settings(overrides) }, { keyed: false, ...(lists === undefined ? {} : { lists, restored: true }) });
  await h.open();
  return h;
}

/** Lets promise callbacks run, then the task's mail. */
async function settle(h: OperatorHarness): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  h.advance(0);
}

describe('AsyncWaitOperator', () => {
  it('ordered: emits in input order with each input\'s timestamp, whatever order results come in', async () => {
    const fn = new Manual();
    const h = await harness(fn as AsyncFunction<unknown, unknown>);
    h.element('a', 1);
    h.element('b', 2);
    h.watermark(2);
    h.element('c', 3);
    fn.complete('c');
    fn.complete('b', ['b1', 'b2']);
    await settle(h);
    expect(h.emitted).toEqual([]);
    fn.complete('a');
    await settle(h);
    expect(h.emitted).toEqual([
      { kind: 'record', value: 'a!', timestamp: 1 },
      { kind: 'record', value: 'b1', timestamp: 2 },
      { kind: 'record', value: 'b2', timestamp: 2 },
      { kind: 'watermark', timestamp: 2 },
      { kind: 'record', value: 'c!', timestamp: 3 },
    ]);
  });

  it('unordered: emits as results come, but never across a watermark', async () => {
    const fn = new Manual();
    const h = await harness(fn as AsyncFunction<unknown, unknown>, { mode: 'unordered' });
    h.element('a');
    h.element('b');
    h.watermark(5);
    h.element('c');
    fn.complete('c');
    fn.complete('b');
    await settle(h);
    expect(h.emitted.map((e) => (e.kind === 'record' ? e.value : e.kind))).toEqual(['b!']);
    fn.complete('a');
    await settle(h);
    expect(h.emitted.map((e) => (e.kind === 'record' ? e.value : e.kind))).toEqual(['b!', 'a!', 'watermark', 'c!']);
  });

  it('takes a promise-returning function; a rejection fails the job', async () => {
    const h = await harness({ asyncInvoke: async (input: unknown) => [`<${String(input)}>`] });
    h.element('x');
    await settle(h);
    expect(h.takeRecords()).toEqual(['<x>']);
    const failing = await harness({ asyncInvoke: () => Promise.reject(new Error('lookup failed')) });
    failing.element('x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => failing.advance(0)).toThrow(/Op \(1\/1\) failed: lookup failed/);
  });

  it('a call that never completes times out: by default the job fails with ASYNC_TIMEOUT, timeout() may emit a fallback', async () => {
    const never = await harness({ asyncInvoke: () => new Promise<never>(() => {}) }, { timeoutMs: 500 });
    never.element({ id: 7 });
    never.advance(499);
    let failure: unknown;
    try {
      never.advance(1);
    } catch (err) {
      failure = err;
    }
    expect(failure).toMatchObject({ code: 'ASYNC_TIMEOUT' });
    expect(String((failure as Error).message)).toContain('Async function call has timed out after 500 ms (input: {"id":7})');

    class Fallback extends RichAsyncFunction<string, string> {
      asyncInvoke(): void {}
      override timeout(input: string, future: ResultFuture<string>): void {
        future.complete([`${input}:fallback`]);
      }
    }
    const fallback = await harness(new Fallback() as AsyncFunction<unknown, unknown>, { timeoutMs: 100 });
    fallback.element('a');
    fallback.advance(100);
    expect(fallback.takeRecords()).toEqual(['a:fallback']);
  });

  it('retries on an error after a fixed delay, and on an empty result with exponential backoff', async () => {
    let calls = 0;
    const flaky = {
      asyncInvoke: async (input: unknown) => {
        calls++;
        if (calls < 3) throw new Error('busy');
        return [`${String(input)}@${calls}`];
      },
    };
    const fixed = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<unknown>(3, 50).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build();
    const h = await harness(flaky, { retry: fixed });
    h.element('a');
    await settle(h);
    h.advance(50);
    await settle(h);
    expect(calls).toBe(2);
    h.advance(50);
    await settle(h);
    expect(h.takeRecords()).toEqual(['a@3']);

    const backoff = new AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder<unknown>(5, 10, 35, 2).ifResult(RetryPredicates.EMPTY_RESULT_PREDICATE).build();
    expect([1, 2, 3, 4].map((n) => backoff.getBackoffTimeMillis(n))).toEqual([10, 20, 35, 35]);
    expect([5, 6].map((n) => backoff.canRetry(n))).toEqual([true, false]);
  });

  it('a timeout during retries completes with the last retried result, as Flink', async () => {
    const pending = { asyncInvoke: async () => ['pending'] as unknown[] };
    const retry: AsyncRetryStrategy<unknown> = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<unknown>(100, 40).ifResult((r) => r[0] === 'pending').build();
    const h = await harness(pending, { retry, timeoutMs: 100 });
    h.element('a');
    for (let i = 0; i < 3; i++) {
      await settle(h);
      h.advance(40);
    }
    await settle(h);
    expect(h.takeRecords()).toEqual(['pending']);
  });

  it('blocks the chain at capacity (the task takes no input, upstream timers wait); inputs beyond it wait un-invoked', async () => {
    const fn = new Manual();
    const h = await harness(fn as AsyncFunction<unknown, unknown>, { capacity: 2 });
    h.element('a');
    expect(h.work.chain.blocked).toBe(0);
    h.element('b');
    expect(h.work.chain.blocked).toBe(1);
    // Not pending work: a checkpoint step may still run, and the completions that unblock it never wait behind one.
    expect(h.work.count).toBe(0);
    // A chained operator upstream may emit more within one record: queued, not invoked.
    h.element('c');
    expect(fn.calls.map((c) => c.input)).toEqual(['a', 'b']);
    let resumed = false;
    void h.work.chain.whenUnblocked().then(() => (resumed = true));
    fn.complete('a');
    await settle(h);
    expect(fn.calls.map((c) => c.input)).toEqual(['a', 'b', 'c']);
    expect(resumed).toBe(false);
    fn.complete('b');
    await settle(h);
    await Promise.resolve();
    expect(resumed).toBe(true);
    expect(h.work.chain.blocked).toBe(0);
    expect(h.takeRecords()).toEqual(['a!', 'b!']);
  });

  it('keeps in-flight inputs and watermarks in its snapshot and invokes them again after a restore', async () => {
    const fn = new Manual();
    const h = await harness(fn as AsyncFunction<unknown, unknown>);
    h.element('a', 1);
    h.element('b', 2);
    fn.complete('a');
    await settle(h);
    h.watermark(3);
    h.element('c', 4);
    fn.complete('c');
    const lists = await h.snapshot(1);
    expect([...lists.snapshot()]).toEqual([['$async-wait-queue', { mode: 'split', entries: [{ v: 'b', t: 2 }, { w: 3 }, { v: 'c', t: 4 }] }]]);
    const again = new Manual();
    const restored = await harness(again as AsyncFunction<unknown, unknown>, {}, lists);
    expect(again.calls.map((c) => c.input)).toEqual(['b', 'c']);
    again.complete('b');
    again.complete('c');
    await settle(restored);
    expect(restored.emitted).toEqual([
      { kind: 'record', value: 'b!', timestamp: 2 },
      { kind: 'watermark', timestamp: 3 },
      { kind: 'record', value: 'c!', timestamp: 4 },
    ]);
  });

  it('holds results that complete while a step runs (a snapshot until its barrier) until after that step', async () => {
    const fn = new Manual();
    const h = await harness(fn as AsyncFunction<unknown, unknown>);
    h.element('a');
    let release!: () => void;
    h.work.addStep(() => new Promise<void>((resolve) => (release = resolve)));
    const drained = h.work.drain();
    fn.complete('a');
    await settle(h);
    expect(h.work.stepRunning).toBe(true);
    expect(h.takeRecords()).toEqual([]);
    release();
    await drained;
    expect(h.takeRecords()).toEqual(['a!']);
  });

  it('finish waits for the last inputs, their timeouts included', async () => {
    const fn = new Manual();
    const h = await harness(fn as AsyncFunction<unknown, unknown>, { timeoutMs: 100 });
    h.element('a');
    h.element('b');
    let finished = false;
    const finishing = h.operator.finish().then(() => (finished = true));
    fn.complete('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(false);
    expect(h.takeRecords()).toEqual(['a!']);
    h.clock.advance(100);
    await expect(finishing).rejects.toMatchObject({ code: 'ASYNC_TIMEOUT' });
  });
});
