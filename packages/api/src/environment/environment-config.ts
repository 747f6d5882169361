import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';

/** What `env.getConfig()` returns (the part of Flink's ExecutionConfig that Weir has): the auto-watermark interval, object reuse. */
export class EnvironmentConfig {
  #autoWatermarkIntervalMs: number;
  #objectReuse = false;

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

  /** How often periodic watermarks are emitted (ms, Flink's pipeline.auto-watermark-interval); 0: never. */
  getAutoWatermarkInterval(): number {
    return this.#autoWatermarkIntervalMs;
  }

  /**
   * Lets records pass between tasks of one TaskManager as the very objects the producing task
   * emitted, without serializing them (Flink's object reuse; the cluster's pipeline.object-reuse
   * turns it on for every job). A job that enables it promises what Flink asks of it: a function
   * does not change a record after emitting it, and does not change records it receives (copy
   * one to change it). Records are still checked, so a record that could not cross a
   * TaskManager is refused here too.
   */
  enableObjectReuse(): this {
    this.#objectReuse = true;
    return this;
  }

  /** The default: every record between tasks is serialized, so no task ever sees another task's objects. */
  disableObjectReuse(): this {
    this.#objectReuse = false;
    return this;
  }

  /** Whether records between chained or co-located operators are handed over without copying (Flink's object reuse). */
  isObjectReuseEnabled(): boolean {
    return this.#objectReuse;
  }
}

function requireInterval(ms: number): number {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
    throw new WeirError(ApiErrorCode.INVALID_WATERMARK_STRATEGY, `the auto-watermark interval must be a whole number of milliseconds >= 0 (0: off), got ${String(ms)}`);
  }
  return ms;
}
