import type { Clock, Logger, TimerHandle } from '@weir/common';
import type { UntilCanceled } from './task-runtime.ts';

/** How long a canceled task's clean-up waits for its set-up step in flight (Flink's task.cancellation.timeout plays this part). */
export const SET_UP_GRACE_MS = 30_000;

/**
 * The steps of a task's set-up (opening state, restoring, opening operators). A cancel stops
 * the task waiting for the step in flight, but the step runs on (an operator's open() waiting
 * for a broker, say), and what it creates once it returns would outlive the attempt: a Kafka
 * writer's producer would fence the next attempt's transaction. So clean-up first waits for
 * that step to end, and the operators then close what it made. Connectors that honour
 * ConnectorContext.signal end it at once; one that ignores it holds clean-up up to
 * SET_UP_GRACE_MS, after which clean-up goes on without it (logged).
 */
export class SetUpSteps {
  #inFlight: Promise<unknown> | undefined;

  constructor(
    private readonly untilCanceled: UntilCanceled,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  run<T>(step: Promise<T>): Promise<T> {
    this.#inFlight = step;
    return this.untilCanceled(step);
  }

  /** Resolves once the last step ended, or after the grace period. */
  async settled(): Promise<void> {
    const step = this.#inFlight;
    if (step === undefined) return;
    let timer: TimerHandle | undefined;
    const graceOver = new Promise<'grace-over'>((resolve) => (timer = this.clock.setTimeout(() => resolve('grace-over'), SET_UP_GRACE_MS)));
    const outcome = await Promise.race([step.then(() => 'ended', () => 'ended'), graceOver]);
    this.clock.clearTimeout(timer!);
    if (outcome === 'grace-over') {
      this.logger.warn({ graceMs: SET_UP_GRACE_MS }, 'a set-up step of the canceled task did not end: cleaning up without it; what it creates later is not closed');
    }
  }
}
