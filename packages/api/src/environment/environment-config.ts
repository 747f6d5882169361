import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';

/** What `env.getConfig()` returns (the part of Flink's ExecutionConfig that Weir has). */
export class EnvironmentConfig {
  #autoWatermarkIntervalMs: number;

  constructor(autoWatermarkIntervalMs: number) {
    this.#autoWatermarkIntervalMs = requireInterval(autoWatermarkIntervalMs);
  }

  /**
   * How often sources and `assignTimestampsAndWatermarks` ask their watermark generators for a
   * watermark (onPeriodicEmit); 0 turns periodic watermarks off. Default: the cluster's
   * pipeline.auto-watermark-interval, 200 ms unless configured.
   */
  setAutoWatermarkInterval(intervalMs: number): this {
    this.#autoWatermarkIntervalMs = requireInterval(intervalMs);
    return this;
  }

  getAutoWatermarkInterval(): number {
    return this.#autoWatermarkIntervalMs;
  }
}

function requireInterval(ms: number): number {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
    throw new WeirError(ApiErrorCode.INVALID_WATERMARK_STRATEGY, `the auto-watermark interval must be a whole number of milliseconds >= 0 (0: off), got ${String(ms)}`);
  }
  return ms;
}
