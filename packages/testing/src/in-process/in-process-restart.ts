import type { ExecutionConfig } from '@weir/api';

/** Restarts the in-process MiniCluster tries before a job with checkpointing and no restart strategy FAILS (Flink's default is unbounded). */
const DEFAULT_ATTEMPTS = 100;

/**
 * Whether the job's `failures`-th failure restarts it, and after how long: its restart strategy
 * as the JobManager reads it (fixed-delay: attempts and delay; exponential-delay: the initial
 * backoff; failure-rate: its delay, each failure counted, differs from Flink which counts per
 * interval). No strategy: restart when the job checkpoints (Flink's default), else FAIL.
 */
export function restartDecision(config: ExecutionConfig, failures: number): { readonly delayMs: number } | undefined {
  const strategy = config.restartStrategy;
  if (strategy === undefined) return config.checkpointing !== undefined && failures <= DEFAULT_ATTEMPTS ? { delayMs: 0 } : undefined;
  switch (strategy.kind) {
    case 'none':
      return undefined;
    case 'fixed-delay':
      return failures <= strategy.attempts ? { delayMs: strategy.delayMs } : undefined;
    case 'exponential-delay':
      return failures <= DEFAULT_ATTEMPTS ? { delayMs: strategy.initialBackoffMs } : undefined;
    case 'failure-rate':
      return failures <= strategy.maxFailuresPerInterval ? { delayMs: strategy.delayMs } : undefined;
  }
}
