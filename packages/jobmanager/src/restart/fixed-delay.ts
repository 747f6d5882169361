import { RestartDecision, type RestartStrategy } from './restart-strategy.ts';

/** Up to `attempts` restarts over the job's life, each after the same delay. */
export class FixedDelayRestart implements RestartStrategy {
  readonly name = 'fixed-delay';
  #failures = 0;

  constructor(
    private readonly attempts: number,
    private readonly delayMs: number,
  ) {}

  onFailure(): RestartDecision {
    this.#failures++;
    return this.#failures > this.attempts ? RestartDecision.giveUp() : RestartDecision.after(this.delayMs);
  }
}
