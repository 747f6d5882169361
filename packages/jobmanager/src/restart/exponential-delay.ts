import { RestartDecision, type RestartStrategy } from './restart-strategy.ts';

export interface ExponentialDelayOptions {
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly multiplier: number;
  /** A job that ran this long since its last restart starts again from the initial backoff. */
  readonly resetThresholdMs: number;
  /** Each delay moves by up to this share of itself, up or down, at random. */
  readonly jitter: number;
}

/**
 * Never gives up: the delay starts at the initial backoff and grows by the multiplier with
 * every failure up to the max, with jitter so that jobs failing together do not restart in
 * lockstep. Running past the reset threshold since the last restart resets the backoff.
 */
export class ExponentialDelayRestart implements RestartStrategy {
  readonly name = 'exponential-delay';
  #backoffMs: number | undefined;
  #restartedAt = 0;

  /** `random` returns [0, 1) like Math.random; tests pass a fixed one. */
  constructor(
    private readonly options: ExponentialDelayOptions,
    private readonly random: () => number = Math.random,
  ) {}

  onFailure(now: number): RestartDecision {
    const { initialBackoffMs, maxBackoffMs, multiplier, resetThresholdMs, jitter } = this.options;
    const ranLongEnough = this.#backoffMs !== undefined && now - this.#restartedAt >= resetThresholdMs;
    this.#backoffMs =
      this.#backoffMs === undefined || ranLongEnough ? initialBackoffMs : Math.min(this.#backoffMs * multiplier, maxBackoffMs);
    const jittered = this.#backoffMs * (1 + jitter * (2 * this.random() - 1));
    const delayMs = Math.round(Math.min(Math.max(jittered, 0), maxBackoffMs));
    this.#restartedAt = now + delayMs;
    return RestartDecision.after(delayMs);
  }
}
