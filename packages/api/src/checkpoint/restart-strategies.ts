import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { RestartStrategySettings } from '../graph/stream-graph.ts';

/**
 * A restart strategy for `env.setRestartStrategy()`, usually made by a RestartStrategies
 * factory. The constructor validates, so every instance holds settings the cluster can use.
 */
export class RestartStrategyConfiguration {
  readonly settings: RestartStrategySettings;

  constructor(settings: RestartStrategySettings) {
    this.settings = Object.freeze(validate(settings));
  }
}

/** How a failed job restarts (Flink's RestartStrategies); all times in ms. */
export class RestartStrategies {
  private constructor() {}

  /** A failure fails the job for good. */
  static noRestart(): RestartStrategyConfiguration {
    return new RestartStrategyConfiguration({ kind: 'none' });
  }

  /** Up to `restartAttempts` restarts, `delayMs` apart; one more failure fails the job for good. */
  static fixedDelayRestart(restartAttempts: number, delayMs: number): RestartStrategyConfiguration {
    return new RestartStrategyConfiguration({ kind: 'fixed-delay', attempts: restartAttempts, delayMs });
  }

  /**
   * Restarts without limit, the delay starting at `initialBackoffMs` and growing by
   * `backoffMultiplier` per restart up to `maxBackoffMs`; running `resetBackoffThresholdMs`
   * without failure resets it. Each delay moves up or down by a random share of at most `jitterFactor`.
   */
  static exponentialDelayRestart(
    initialBackoffMs: number,
    maxBackoffMs: number,
    backoffMultiplier: number,
    resetBackoffThresholdMs: number,
    jitterFactor: number,
  ): RestartStrategyConfiguration {
    return new RestartStrategyConfiguration({
      kind: 'exponential-delay',
      initialBackoffMs,
      maxBackoffMs,
      multiplier: backoffMultiplier,
      resetThresholdMs: resetBackoffThresholdMs,
      jitter: jitterFactor,
    });
  }

  /** Restarts `delayMs` after each failure, unless more than `maxFailuresPerInterval` failures fell within `intervalMs`. */
  static failureRateRestart(maxFailuresPerInterval: number, intervalMs: number, delayMs: number): RestartStrategyConfiguration {
    return new RestartStrategyConfiguration({ kind: 'failure-rate', maxFailuresPerInterval, intervalMs, delayMs });
  }
}

const FIXED = 'RestartStrategies.fixedDelayRestart(restartAttempts, delayMs)';
const EXPONENTIAL =
  'RestartStrategies.exponentialDelayRestart(initialBackoffMs, maxBackoffMs, backoffMultiplier, resetBackoffThresholdMs, jitterFactor)';
const FAILURE_RATE = 'RestartStrategies.failureRateRestart(maxFailuresPerInterval, intervalMs, delayMs)';

function validate(settings: RestartStrategySettings): RestartStrategySettings {
  switch (settings?.kind) {
    case 'none':
      return { kind: 'none' };
    case 'fixed-delay':
      return {
        kind: 'fixed-delay',
        attempts: wholeAtLeast(settings.attempts, 0, 'restartAttempts', FIXED),
        delayMs: wholeAtLeast(settings.delayMs, 0, 'delayMs', FIXED),
      };
    case 'exponential-delay': {
      const initialBackoffMs = wholeAtLeast(settings.initialBackoffMs, 1, 'initialBackoffMs', EXPONENTIAL);
      const maxBackoffMs = wholeAtLeast(settings.maxBackoffMs, 1, 'maxBackoffMs', EXPONENTIAL);
      if (maxBackoffMs < initialBackoffMs) {
        throw invalid(`maxBackoffMs (${maxBackoffMs}) must be at least initialBackoffMs (${initialBackoffMs})`, EXPONENTIAL);
      }
      if (!Number.isFinite(settings.multiplier) || settings.multiplier < 1) {
        throw invalid(`backoffMultiplier must be a number >= 1, got ${String(settings.multiplier)}`, EXPONENTIAL);
      }
      if (!Number.isFinite(settings.jitter) || settings.jitter < 0 || settings.jitter > 1) {
        throw invalid(`jitterFactor must be a number from 0 to 1, got ${String(settings.jitter)}`, EXPONENTIAL);
      }
      return {
        kind: 'exponential-delay',
        initialBackoffMs,
        maxBackoffMs,
        multiplier: settings.multiplier,
        resetThresholdMs: wholeAtLeast(settings.resetThresholdMs, 1, 'resetBackoffThresholdMs', EXPONENTIAL),
        jitter: settings.jitter,
      };
    }
    case 'failure-rate':
      return {
        kind: 'failure-rate',
        maxFailuresPerInterval: wholeAtLeast(settings.maxFailuresPerInterval, 1, 'maxFailuresPerInterval', FAILURE_RATE),
        intervalMs: wholeAtLeast(settings.intervalMs, 1, 'intervalMs', FAILURE_RATE),
        delayMs: wholeAtLeast(settings.delayMs, 0, 'delayMs', FAILURE_RATE),
      };
    default:
      throw new WeirError(
        ApiErrorCode.INVALID_RESTART_STRATEGY,
        `unknown restart strategy ${JSON.stringify((settings as { kind?: unknown } | undefined)?.kind)}; ` +
          'make one with RestartStrategies.noRestart(), fixedDelayRestart(), exponentialDelayRestart() or failureRateRestart()',
      );
  }
}

function wholeAtLeast(value: number, min: number, name: string, signature: string): number {
  if (!Number.isSafeInteger(value) || value < min) throw invalid(`${name} must be a whole number >= ${min}, got ${String(value)}`, signature);
  return value;
}

function invalid(problem: string, signature: string): WeirError {
  return new WeirError(ApiErrorCode.INVALID_RESTART_STRATEGY, `${signature}: ${problem}`);
}
