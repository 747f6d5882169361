import { describe, expect, it } from 'vitest';
import { isWeirError, WeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { describeCause, withRetry } from './retry.ts';

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** An operation that fails `failures` times with ECONNREFUSED, then answers 'ok'; it records the clock at each call. */
function flaky(clock: ManualClock, failures: number) {
  const calls: number[] = [];
  const operation = async (): Promise<string> => {
    calls.push(clock.now());
    if (calls.length <= failures) {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    }
    return 'ok';
  };
  return { calls, operation };
}

describe('withRetry', () => {
  it('tries again after doubling delays until the operation succeeds', async () => {
    const clock = new ManualClock();
    const { calls, operation } = flaky(clock, 2);
    const result = withRetry(operation, 'write s3://b/k', { attempts: 5, initialDelayMs: 100, maxDelayMs: 2_000 }, clock);
    await flush();
    expect(calls).toEqual([0]);
    clock.advance(99);
    await flush();
    expect(calls).toEqual([0]);
    clock.advance(1);
    await flush();
    clock.advance(200);
    await flush();
    expect(await result).toBe('ok');
    expect(calls).toEqual([0, 100, 300]);
  });

  it('fails with STORAGE_FAILURE naming the operation, the attempts and the cause, with delays capped', async () => {
    const clock = new ManualClock();
    const { calls, operation } = flaky(clock, 10);
    const result = withRetry(operation, 'write s3://b/k', { attempts: 5, initialDelayMs: 100, maxDelayMs: 300 }, clock).catch(
      (e: unknown) => e,
    );
    await flush();
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      await flush();
    }
    const error = await result;
    expect(calls).toEqual([0, 100, 300, 600, 900]);
    expect(isWeirError(error, 'STORAGE_FAILURE')).toBe(true);
    expect((error as Error).message).toBe('write s3://b/k failed after 5 attempts: connect ECONNREFUSED 127.0.0.1:9');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('passes a WeirError through at once, without another attempt', async () => {
    let calls = 0;
    const notFound = new WeirError('STORAGE_NOT_FOUND', 'no file at s3://b/k: it does not exist');
    const error = await withRetry(async () => {
      calls++;
      throw notFound;
    }, 'read s3://b/k').catch((e: unknown) => e);
    expect(error).toBe(notFound);
    expect(calls).toBe(1);
  });
});

describe('describeCause', () => {
  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), 'connect ECONNREFUSED 127.0.0.1:9'],
    [Object.assign(new Error('The specified bucket does not exist'), { name: 'NoSuchBucket' }), 'NoSuchBucket: The specified bucket does not exist'],
    [Object.assign(new Error(''), { name: 'TimeoutError' }), 'TimeoutError'],
    [new AggregateError([new Error('first down'), new Error('second down')], ''), 'first down; second down'],
    ['a string', 'a string'],
  ])('describes %s as %j', (error, expected) => {
    expect(describeCause(error)).toBe(expected);
  });
});
