import { describeError, WeirError, type Clock, type TimerHandle } from '@weir/common';
import { RuntimeErrorCode } from '../../../errors.ts';

/** Materializations that may fail in a row before the next checkpoint fails the task (Flink's state.backend.changelog.max-failures-allowed). */
const MAX_FAILURES = 3;

export interface PeriodicMaterializerOptions {
  readonly clock: Clock;
  /** state.backend.changelog.periodic-materialize.interval. */
  readonly intervalMs: number;
  readonly label: string;
  readonly materialize: () => Promise<void>;
}

/**
 * Flink's PeriodicMaterializationManager: every interval, in the background while records
 * flow, the DB is materialized (its files uploaded as an incremental checkpoint would), so the
 * changelog a restore replays stays short. One runs at a time; the next is scheduled when it
 * ends. A failure is retried at the next interval; MAX_FAILURES in a row fail the next checkpoint.
 */
export class PeriodicMaterializer {
  readonly #options: PeriodicMaterializerOptions;
  #timer: TimerHandle | undefined;
  #running: Promise<void> | undefined;
  #failures = 0;
  #lastFailure: unknown;
  #stopped = false;

  constructor(options: PeriodicMaterializerOptions) {
    this.#options = options;
  }

  /** Schedules the next materialization `delayMs` from now (the interval when unset), replacing a scheduled one. */
  schedule(delayMs = this.#options.intervalMs): void {
    if (this.#stopped) return;
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = this.#options.clock.setTimeout(this.#run, delayMs);
  }

  /** Throws once MAX_FAILURES materializations in a row failed. */
  throwFailure(): void {
    if (this.#failures < MAX_FAILURES) return;
    throw new WeirError(
      RuntimeErrorCode.LEVEL_STATE_FAILED,
      `materializing the LevelDB state of ${this.#options.label} failed ${this.#failures} times in a row (state.backend.changelog); the last: ${describeError(this.#lastFailure)}`,
      { cause: this.#lastFailure },
    );
  }

  /** Stops scheduling and waits for a materialization under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Runs one materialization now (tests), or waits for the one under way. */
  async runNow(): Promise<void> {
    if (this.#running === undefined) this.#run();
    await this.#running;
  }

  readonly #run = (): void => {
    this.#timer = undefined;
    if (this.#stopped || this.#running !== undefined) return;
    this.#running = this.#options
      .materialize()
      .then(
        () => {
          this.#failures = 0;
        },
        (err: unknown) => {
          this.#failures++;
          this.#lastFailure = err;
        },
      )
      .finally(() => {
        this.#running = undefined;
        this.schedule();
      });
  };
}
