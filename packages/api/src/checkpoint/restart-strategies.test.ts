import { describe, expect, it } from 'vitest';
import { errorOf } from '../testing/fixtures.ts';
import { RestartStrategies, RestartStrategyConfiguration } from './restart-strategies.ts';

const FIXED = 'RestartStrategies.fixedDelayRestart(restartAttempts, delayMs)';
const EXPONENTIAL =
  'RestartStrategies.exponentialDelayRestart(initialBackoffMs, maxBackoffMs, backoffMultiplier, resetBackoffThresholdMs, jitterFactor)';
const FAILURE_RATE = 'RestartStrategies.failureRateRestart(maxFailuresPerInterval, intervalMs, delayMs)';

describe('RestartStrategies', () => {
  it('makes the settings of each strategy', () => {
    expect(RestartStrategies.noRestart().settings).toEqual({ kind: 'none' });
    expect(RestartStrategies.fixedDelayRestart(3, 1000).settings).toEqual({ kind: 'fixed-delay', attempts: 3, delayMs: 1000 });
    expect(RestartStrategies.fixedDelayRestart(0, 0).settings).toEqual({ kind: 'fixed-delay', attempts: 0, delayMs: 0 });
    expect(RestartStrategies.exponentialDelayRestart(100, 10_000, 1.5, 60_000, 0.1).settings).toEqual({
      kind: 'exponential-delay',
      initialBackoffMs: 100,
      maxBackoffMs: 10_000,
      multiplier: 1.5,
      resetThresholdMs: 60_000,
      jitter: 0.1,
    });
    expect(RestartStrategies.failureRateRestart(3, 60_000, 500).settings).toEqual({
      kind: 'failure-rate',
      maxFailuresPerInterval: 3,
      intervalMs: 60_000,
      delayMs: 500,
    });
  });

  it('freezes the settings', () => {
    expect(Object.isFrozen(RestartStrategies.fixedDelayRestart(1, 1).settings)).toBe(true);
  });

  it.each([
    ['negative attempts', () => RestartStrategies.fixedDelayRestart(-1, 1000), `${FIXED}: restartAttempts must be a whole number >= 0, got -1`],
    ['negative delay', () => RestartStrategies.fixedDelayRestart(3, -1), `${FIXED}: delayMs must be a whole number >= 0, got -1`],
    ['infinite attempts', () => RestartStrategies.fixedDelayRestart(Number.POSITIVE_INFINITY, 0), `${FIXED}: restartAttempts must be a whole number >= 0, got Infinity`],
    ['zero initial backoff', () => RestartStrategies.exponentialDelayRestart(0, 10, 2, 10, 0), `${EXPONENTIAL}: initialBackoffMs must be a whole number >= 1, got 0`],
    ['max below initial backoff', () => RestartStrategies.exponentialDelayRestart(100, 50, 2, 10, 0), `${EXPONENTIAL}: maxBackoffMs (50) must be at least initialBackoffMs (100)`],
    ['multiplier below 1', () => RestartStrategies.exponentialDelayRestart(1, 10, 0.5, 10, 0), `${EXPONENTIAL}: backoffMultiplier must be a number >= 1, got 0.5`],
    ['zero reset threshold', () => RestartStrategies.exponentialDelayRestart(1, 10, 2, 0, 0), `${EXPONENTIAL}: resetBackoffThresholdMs must be a whole number >= 1, got 0`],
    ['jitter above 1', () => RestartStrategies.exponentialDelayRestart(1, 10, 2, 10, 1.5), `${EXPONENTIAL}: jitterFactor must be a number from 0 to 1, got 1.5`],
    ['negative jitter', () => RestartStrategies.exponentialDelayRestart(1, 10, 2, 10, -0.1), `${EXPONENTIAL}: jitterFactor must be a number from 0 to 1, got -0.1`],
    ['zero failures per interval', () => RestartStrategies.failureRateRestart(0, 1000, 0), `${FAILURE_RATE}: maxFailuresPerInterval must be a whole number >= 1, got 0`],
    ['zero interval', () => RestartStrategies.failureRateRestart(1, 0, 0), `${FAILURE_RATE}: intervalMs must be a whole number >= 1, got 0`],
    ['negative failure-rate delay', () => RestartStrategies.failureRateRestart(1, 10, -1), `${FAILURE_RATE}: delayMs must be a whole number >= 0, got -1`],
  ])('rejects %s with INVALID_RESTART_STRATEGY', (_name, make, message) => {
    expect(errorOf(make)).toEqual({ code: 'INVALID_RESTART_STRATEGY', message });
  });

  it('validates a configuration built directly, unknown kinds included', () => {
    expect(new RestartStrategyConfiguration({ kind: 'fixed-delay', attempts: 2, delayMs: 5 }).settings).toEqual({ kind: 'fixed-delay', attempts: 2, delayMs: 5 });
    expect(errorOf(() => new RestartStrategyConfiguration({ kind: 'fixed-delay', attempts: 1.5, delayMs: 5 })).code).toBe('INVALID_RESTART_STRATEGY');
    expect(errorOf(() => new RestartStrategyConfiguration({ kind: 'forever' } as never))).toEqual({
      code: 'INVALID_RESTART_STRATEGY',
      message:
        'unknown restart strategy "forever"; make one with RestartStrategies.noRestart(), fixedDelayRestart(), exponentialDelayRestart() or failureRateRestart()',
    });
  });
});
