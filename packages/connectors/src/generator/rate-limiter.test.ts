import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { RateLimiterStrategy } from './rate-limiter.ts';

function acquireAll(limiter: { tryAcquire(): boolean }): number {
  let n = 0;
  while (limiter.tryAcquire()) n++;
  return n;
}

describe('RateLimiterStrategy', () => {
  it('noOp never limits', async () => {
    const limiter = RateLimiterStrategy.noOp().createRateLimiter(4);
    for (let i = 0; i < 10_000; i++) expect(limiter.tryAcquire()).toBe(true);
    await expect(limiter.whenAvailable()).resolves.toBeUndefined();
  });

  it('perSecond gives each reader its share of the rate, with a bucket of a tenth of a second', () => {
    const clock = new ManualClock();
    const limiter = RateLimiterStrategy.perSecond(1000, clock).createRateLimiter(2);
    // 500/s per reader: a full bucket holds 50.
    expect(acquireAll(limiter)).toBe(50);
    clock.advance(10);
    expect(acquireAll(limiter)).toBe(5);
    clock.advance(1_000);
    expect(acquireAll(limiter)).toBe(50);
  });

  it('keeps the average rate exact over fractional refills', () => {
    const clock = new ManualClock();
    const limiter = RateLimiterStrategy.perSecond(3, clock).createRateLimiter(1);
    let granted = acquireAll(limiter);
    for (let ms = 0; ms < 10_000; ms++) {
      clock.advance(1);
      granted += acquireAll(limiter);
    }
    expect(granted).toBe(31);
  });

  it('whenAvailable resolves when the next token is due, not before', async () => {
    const clock = new ManualClock();
    const limiter = RateLimiterStrategy.perSecond(3, clock).createRateLimiter(1);
    expect(acquireAll(limiter)).toBe(1);
    let resolved = 0;
    const wait = limiter.whenAvailable();
    expect(limiter.whenAvailable()).toBe(wait);
    void wait.then(() => resolved++);
    clock.advance(333);
    await Promise.resolve();
    expect(resolved).toBe(0);
    clock.advance(1);
    await Promise.resolve();
    expect(resolved).toBe(1);
    expect(limiter.tryAcquire()).toBe(true);
  });

  it('close drops the pending timer', async () => {
    const clock = new ManualClock();
    const limiter = RateLimiterStrategy.perSecond(1, clock).createRateLimiter(1);
    limiter.tryAcquire();
    let resolved = false;
    void limiter.whenAvailable().then(() => (resolved = true));
    limiter.close();
    clock.advance(5_000);
    await Promise.resolve();
    expect(resolved).toBe(false);
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY])('rejects a rate of %s', (rate) => {
    try {
      RateLimiterStrategy.perSecond(rate);
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_ARGUMENT')).toBe(true);
    }
  });
});
