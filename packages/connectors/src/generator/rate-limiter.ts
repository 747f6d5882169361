import { systemClock, WeirError, type Clock, type TimerHandle } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';

/** Paces one source reader. */
export interface RateLimiter {
  /** Takes a permit for one record; false when the next record is not due yet. */
  tryAcquire(): boolean;
  /** Resolves when `tryAcquire` can succeed again. */
  whenAvailable(): Promise<void>;
  /** Drops a pending `whenAvailable` timer. */
  close(): void;
}

/** How a source paces its readers (Flink's RateLimiterStrategy). */
export abstract class RateLimiterStrategy {
  /** One limiter per reader; `parallelism` readers share the source's rate. */
  abstract createRateLimiter(parallelism: number): RateLimiter;

  /** At most `recordsPerSecond` records per second for the whole source, split evenly over its readers. */
  static perSecond(recordsPerSecond: number, clock: Clock = systemClock): RateLimiterStrategy {
    if (!(recordsPerSecond > 0) || !Number.isFinite(recordsPerSecond)) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_ARGUMENT,
        `RateLimiterStrategy.perSecond() needs a positive, finite number of records per second, got ${recordsPerSecond}`,
      );
    }
    return new PerSecondStrategy(recordsPerSecond, clock);
  }

  /** No limit: as fast as downstream takes records. */
  static noOp(): RateLimiterStrategy {
    return NO_OP_STRATEGY;
  }
}

class PerSecondStrategy extends RateLimiterStrategy {
  constructor(
    private readonly recordsPerSecond: number,
    private readonly clock: Clock,
  ) {
    super();
  }

  createRateLimiter(parallelism: number): RateLimiter {
    return new TokenBucketRateLimiter(this.recordsPerSecond, parallelism, this.clock);
  }
}

const NO_OP_LIMITER: RateLimiter = {
  tryAcquire: () => true,
  whenAvailable: () => Promise.resolve(),
  close: () => {},
};

const NO_OP_STRATEGY = new (class NoOpStrategy extends RateLimiterStrategy {
  createRateLimiter(): RateLimiter {
    return NO_OP_LIMITER;
  }
})();

/** Float noise from fractional intervals must not hold back a record that is due. */
const EPSILON_MS = 1e-9;

/**
 * A token bucket of `recordsPerSecond / parallelism` records per second, in its
 * virtual-scheduling form (GCRA): `due` is when the next record is due at the steady rate,
 * and a record may go up to `burstMs` early. The bucket starts full and holds a tenth of a second's worth
 * (at least one record), so a reader held up by backpressure catches up by at most that much
 * at once. The clock is read once per burst, not per record.
 */
export class TokenBucketRateLimiter implements RateLimiter {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #burstMs: number;
  #due: number;
  /** Records that may still go at the last clock reading without reading it again. */
  #budget = 0;
  #timer: TimerHandle | undefined;
  #available: Promise<void> | undefined;

  constructor(recordsPerSecond: number, parallelism: number, clock: Clock) {
    this.#clock = clock;
    const perReader = recordsPerSecond / parallelism;
    this.#intervalMs = 1000 / perReader;
    this.#burstMs = (Math.max(1, perReader / 10) - 1) * this.#intervalMs;
    this.#due = clock.now();
  }

  tryAcquire(): boolean {
    if (this.#budget > 0) {
      this.#budget--;
      this.#due += this.#intervalMs;
      return true;
    }
    const now = this.#clock.now();
    // Behind schedule: whole missed intervals are forfeited (the bucket is full), but the
    // schedule's phase is kept, so observing time in coarse steps loses no fraction of the rate.
    if (this.#due < now) this.#due = now - ((now - this.#due) % this.#intervalMs);
    const slack = now + this.#burstMs - this.#due;
    if (slack < -EPSILON_MS) return false;
    this.#budget = Math.floor(slack / this.#intervalMs + EPSILON_MS);
    this.#due += this.#intervalMs;
    return true;
  }

  whenAvailable(): Promise<void> {
    const waitMs = this.#due - this.#burstMs - this.#clock.now();
    if (this.#budget > 0 || waitMs <= EPSILON_MS) return Promise.resolve();
    if (this.#available === undefined) {
      this.#available = new Promise((resolve) => {
        this.#timer = this.#clock.setTimeout(() => {
          this.#timer = undefined;
          this.#available = undefined;
          resolve();
        }, Math.ceil(waitMs - EPSILON_MS));
      });
    }
    return this.#available;
  }

  close(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
