import { RestartDecision, type RestartStrategy } from './restart-strategy.ts';

/** The job fails with its first failure. */
export class NoRestart implements RestartStrategy {
  readonly name = 'none';

  onFailure(): RestartDecision {
    return RestartDecision.giveUp();
  }
}
