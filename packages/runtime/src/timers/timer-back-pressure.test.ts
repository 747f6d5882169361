import { describe, expect, it } from 'vitest';
import { ManualClock } from '@weir/common/testing';
import { heapBackend } from '../state/level/level-test-support.ts';
import { PendingWork } from '../operators/pending-work.ts';
import { ProcessingTimeService } from '../time/processing-time-service.ts';
import { InternalTimerService, type InternalTimer } from './internal-timer-service.ts';

/** A timer service whose chain an async operator at capacity can block (ChainBackPressure). */
function timers() {
  const backend = heapBackend();
  const clock = new ManualClock(1_000);
  const mail: (() => void)[] = [];
  const fired: unknown[] = [];
  const work = new PendingWork();
  const record = (timer: InternalTimer): void => void fired.push(timer.key);
  const service = new InternalTimerService('user', backend, new ProcessingTimeService(clock, (action) => mail.push(action)), { onEventTime: record, onProcessingTime: record }, work);
  const at = (key: number, register: () => void): void => {
    backend.keys.setCurrentKey(key);
    register();
    backend.keys.clearCurrentKey();
  };
  const runMail = (): void => {
    while (mail.length !== 0) mail.shift()!();
  };
  return { service, fired, clock, at, runMail, work };
}

describe('timers behind a back-pressured chain', () => {
  it('fires no event-time timer while the chain is blocked; the watermark goes on once they fired after it unblocks', async () => {
    const t = timers();
    for (const key of [1, 2, 3]) t.at(key, () => t.service.registerEventTimeTimer('', 10));
    const unblock = t.work.chain.block();
    let passed = false;
    t.service.advanceWatermark(10, () => (passed = true));
    expect(t.fired).toEqual([]);
    const drained = t.work.drain();
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.fired).toEqual([]);
    // The step waits without holding back mail: what the blocked operator's completions need.
    expect(t.work.stepRunning).toBe(false);
    unblock();
    await drained;
    expect(t.fired).toEqual([1, 2, 3]);
    expect(passed).toBe(true);
  });

  it('stops a processing-time wake-up while the chain is blocked and fires the rest after, without a wake-up per turn meanwhile', async () => {
    const t = timers();
    const unblock = t.work.chain.block();
    for (const key of [1, 2]) t.at(key, () => t.service.registerProcessingTimeTimer('', 1_000));
    t.clock.advance(0);
    t.runMail();
    expect(t.fired).toEqual([]);
    t.clock.advance(100);
    t.runMail();
    expect(t.fired).toEqual([]);
    unblock();
    await Promise.resolve();
    t.clock.advance(0);
    t.runMail();
    expect(t.fired).toEqual([1, 2]);
  });
});
