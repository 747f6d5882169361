/** What follows a failure of a job: a new attempt after a pause, or the end. */
export type RestartDecision = { readonly kind: 'restart'; readonly delayMs: number } | { readonly kind: 'give-up' };

export const RestartDecision = {
  after(delayMs: number): RestartDecision {
    return { kind: 'restart', delayMs };
  },
  giveUp(): RestartDecision {
    return { kind: 'give-up' };
  },
} as const;

/** Decides, failure by failure, whether and when a failed job restarts (Flink's restart strategies). */
export interface RestartStrategy {
  /** As the restart-strategy.type key names it. */
  readonly name: string;
  /** Called once per failure of the job, at `now` (clock ms). */
  onFailure(now: number): RestartDecision;
}
