import { durationText } from '@weir/common';
import type { RestartStrategySettings } from '@weir/api';
import type { CheckpointingSettings } from './job-settings.ts';

/** "every 1s, EXACTLY_ONCE, filesystem backend" or "off": how a job checkpoints, for `weir info`. */
export function describeCheckpointing(checkpointing: CheckpointingSettings | undefined): string {
  if (checkpointing === undefined) return 'off';
  const { intervalMs, mode, backend, incremental, unaligned } = checkpointing;
  const kind = [mode, unaligned ? 'unaligned' : undefined, `${backend}${incremental ? ' incremental' : ''} backend`].filter((part) => part !== undefined);
  return `every ${durationText(intervalMs)}, ${kind.join(', ')}`;
}

/** "fixed-delay: 3 attempts, 1s apart", …: how a job restarts, for `weir info`. */
export function describeRestartStrategy(strategy: RestartStrategySettings): string {
  switch (strategy.kind) {
    case 'none':
      return 'none';
    case 'fixed-delay':
      return `fixed-delay: ${strategy.attempts} attempts, ${durationText(strategy.delayMs)} apart`;
    case 'exponential-delay':
      return `exponential-delay: ${durationText(strategy.initialBackoffMs)} growing by ${strategy.multiplier} up to ${durationText(strategy.maxBackoffMs)}`;
    case 'failure-rate':
      return `failure-rate: ${strategy.maxFailuresPerInterval} failures per ${durationText(strategy.intervalMs)}, ${durationText(strategy.delayMs)} apart`;
  }
}
