import type { RestartStrategySettings } from '@weir/api';
import { ExponentialDelayRestart } from './exponential-delay.ts';
import { FailureRateRestart } from './failure-rate.ts';
import { FixedDelayRestart } from './fixed-delay.ts';
import { NoRestart } from './no-restart.ts';
import type { RestartStrategy } from './restart-strategy.ts';

/** A fresh strategy for one job; `random` feeds the exponential delay's jitter. */
export function createRestartStrategy(settings: RestartStrategySettings, random: () => number = Math.random): RestartStrategy {
  switch (settings.kind) {
    case 'none':
      return new NoRestart();
    case 'fixed-delay':
      return new FixedDelayRestart(settings.attempts, settings.delayMs);
    case 'failure-rate':
      return new FailureRateRestart(settings.maxFailuresPerInterval, settings.intervalMs, settings.delayMs);
    case 'exponential-delay':
      return new ExponentialDelayRestart(
        {
          initialBackoffMs: settings.initialBackoffMs,
          maxBackoffMs: settings.maxBackoffMs,
          multiplier: settings.multiplier,
          resetThresholdMs: settings.resetThresholdMs,
          jitter: settings.jitter,
        },
        random,
      );
  }
}
