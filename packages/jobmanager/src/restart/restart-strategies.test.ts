import { describe, expect, it } from 'vitest';
import { createRestartStrategy } from './create-restart-strategy.ts';
import type { RestartStrategy } from './restart-strategy.ts';

/** The decisions for failures at the given times: a delay in ms, or 'give up'. */
function decisions(strategy: RestartStrategy, times: readonly number[]): (number | 'give up')[] {
  return times.map((t) => {
    const decision = strategy.onFailure(t);
    return decision.kind === 'restart' ? decision.delayMs : 'give up';
  });
}

describe('restart strategies', () => {
  it('none gives up on the first failure', () => {
    const strategy = createRestartStrategy({ kind: 'none' });
    expect(strategy.name).toBe('none');
    expect(decisions(strategy, [0])).toEqual(['give up']);
  });

  it('fixed-delay restarts `attempts` times with the same delay, then gives up', () => {
    const strategy = createRestartStrategy({ kind: 'fixed-delay', attempts: 2, delayMs: 500 });
    expect(strategy.name).toBe('fixed-delay');
    expect(decisions(strategy, [0, 10_000, 20_000, 30_000])).toEqual([500, 500, 'give up', 'give up']);
    expect(decisions(createRestartStrategy({ kind: 'fixed-delay', attempts: 0, delayMs: 500 }), [0])).toEqual(['give up']);
  });

  it('failure-rate gives up on the failure that makes more than the max within the interval', () => {
    const strategy = createRestartStrategy({ kind: 'failure-rate', maxFailuresPerInterval: 2, intervalMs: 1_000, delayMs: 100 });
    expect(strategy.name).toBe('failure-rate');
    // 0 and 500 fall in one window; 1_000 pushes 0 out; 1_400 makes three within [500, 1_400].
    expect(decisions(strategy, [0, 500, 1_000, 1_400])).toEqual([100, 100, 100, 'give up']);
  });

  it('exponential-delay grows the delay by the multiplier up to the max, with jitter', () => {
    const settings = { kind: 'exponential-delay', initialBackoffMs: 100, maxBackoffMs: 1_000, multiplier: 3, resetThresholdMs: 60_000, jitter: 0 } as const;
    expect(decisions(createRestartStrategy(settings), [0, 1_000, 2_000, 3_000, 4_000])).toEqual([100, 300, 900, 1_000, 1_000]);
    // random() = 1 would be +jitter, 0 is -jitter: 100 * (1 - 0.2) = 80, 300 * 0.8 = 240.
    expect(decisions(createRestartStrategy({ ...settings, jitter: 0.2 }, () => 0), [0, 1_000])).toEqual([80, 240]);
    expect(decisions(createRestartStrategy({ ...settings, jitter: 0.2 }, () => 0.75), [0, 1_000])).toEqual([110, 330]);
  });

  it('exponential-delay starts over after running past the reset threshold since the last restart', () => {
    const strategy = createRestartStrategy({ kind: 'exponential-delay', initialBackoffMs: 100, maxBackoffMs: 10_000, multiplier: 2, resetThresholdMs: 5_000, jitter: 0 });
    // Restarted at 100, 1_200 and 6_599: the failure at 6_199 comes 4_999 after a restart, the one at 21_600 15_001 after.
    expect(decisions(strategy, [0, 1_000, 6_199, 21_600])).toEqual([100, 200, 400, 100]);
  });
});
