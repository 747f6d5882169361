import { WeirError, type WeirConfig } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';
import type { RestartStrategySettings } from '@weir/api';

/**
 * The job's own restart strategy if it set one, else the cluster's restart-strategy.* keys;
 * `default` means, as in Flink since 1.19, exponential-delay (its keys: 1 s growing by 1.5 to
 * 60 s, with jitter) when checkpointing is on, so a job that keeps failing backs off, and none
 * otherwise. Throws INVALID_JOB_SETTINGS for values no strategy can work with.
 */
export function resolveRestartStrategy(
  fromJob: RestartStrategySettings | undefined,
  config: WeirConfig,
  checkpointing: boolean,
): RestartStrategySettings {
  const settings = fromJob ?? fromConfig(config, checkpointing);
  validate(settings, fromJob === undefined ? 'restart-strategy.*' : 'env.setRestartStrategy');
  return settings;
}

function fromConfig(config: WeirConfig, checkpointing: boolean): RestartStrategySettings {
  switch (config['restart-strategy.type']) {
    case 'default':
      return checkpointing ? exponentialDelay(config) : { kind: 'none' };
    case 'none':
      return { kind: 'none' };
    case 'fixed-delay':
      return {
        kind: 'fixed-delay',
        attempts: config['restart-strategy.fixed-delay.attempts'],
        delayMs: config['restart-strategy.fixed-delay.delay'],
      };
    case 'exponential-delay':
      return exponentialDelay(config);
    case 'failure-rate':
      return {
        kind: 'failure-rate',
        maxFailuresPerInterval: config['restart-strategy.failure-rate.max-failures-per-interval'],
        intervalMs: config['restart-strategy.failure-rate.failure-rate-interval'],
        delayMs: config['restart-strategy.failure-rate.delay'],
      };
  }
}

function exponentialDelay(config: WeirConfig): RestartStrategySettings {
  return {
    kind: 'exponential-delay',
    initialBackoffMs: config['restart-strategy.exponential-delay.initial-backoff'],
    maxBackoffMs: config['restart-strategy.exponential-delay.max-backoff'],
    multiplier: config['restart-strategy.exponential-delay.backoff-multiplier'],
    resetThresholdMs: config['restart-strategy.exponential-delay.reset-backoff-threshold'],
    jitter: config['restart-strategy.exponential-delay.jitter-factor'],
  };
}

function validate(settings: RestartStrategySettings, origin: string): void {
  const problems: string[] = [];
  const atLeast = (name: string, value: number, min: number) => {
    if (!(value >= min)) problems.push(`${name} is ${value} but must be at least ${min}`);
  };
  switch (settings.kind) {
    case 'none':
      break;
    case 'fixed-delay':
      atLeast('attempts', settings.attempts, 0);
      atLeast('delay', settings.delayMs, 0);
      break;
    case 'exponential-delay':
      atLeast('initial backoff', settings.initialBackoffMs, 0);
      atLeast('max backoff', settings.maxBackoffMs, settings.initialBackoffMs);
      atLeast('backoff multiplier', settings.multiplier, 1);
      atLeast('reset threshold', settings.resetThresholdMs, 0);
      if (!(settings.jitter >= 0 && settings.jitter <= 1)) problems.push(`jitter factor is ${settings.jitter} but must be from 0 to 1`);
      break;
    case 'failure-rate':
      atLeast('max failures per interval', settings.maxFailuresPerInterval, 1);
      atLeast('failure rate interval', settings.intervalMs, 1);
      atLeast('delay', settings.delayMs, 0);
      break;
  }
  if (problems.length > 0) {
    throw new WeirError(JobManagerErrorCode.INVALID_JOB_SETTINGS, `restart strategy ${settings.kind} from ${origin} cannot work: ${problems.join('; ')}`);
  }
}
