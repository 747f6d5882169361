import { RestartDecision, type RestartStrategy } from './restart-strategy.ts';

/**
 * Restarts after a fixed delay as long as at most `maxFailures` failures fall within any
 * window of `intervalMs`; the failure that makes it one more gives up.
 */
export class FailureRateRestart implements RestartStrategy {
  readonly name = 'failure-rate';
  /** Times of the failures still inside the window, oldest first. */
  readonly #failures: number[] = [];

  constructor(
    private readonly maxFailures: number,
    private readonly intervalMs: number,
    private readonly delayMs: number,
  ) {}

  onFailure(now: number): RestartDecision {
    this.#failures.push(now);
    while (this.#failures.length > 0 && now - this.#failures[0]! >= this.intervalMs) this.#failures.shift();
    return this.#failures.length > this.maxFailures ? RestartDecision.giveUp() : RestartDecision.after(this.delayMs);
  }
}
