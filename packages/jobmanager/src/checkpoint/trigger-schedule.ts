import type { Clock, TimerHandle } from '@weir/common';
import type { CheckpointingSettings } from '../settings/job-settings.ts';

/**
 * When the next periodic checkpoint is due: one interval after the last trigger, no sooner
 * than min-pause after the last completion, and only while fewer than max-concurrent
 * checkpoints are in flight. As in Flink, a min pause implies one checkpoint at a time.
 */
export class TriggerSchedule {
  #timer: TimerHandle | undefined;
  #nextPeriodicAt = 0;
  #lastCompletionAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly settings: Pick<CheckpointingSettings, 'intervalMs' | 'minPauseMs' | 'maxConcurrent'>,
    private readonly due: () => void,
  ) {}

  /** The periodic clock restarts now: the next trigger comes one interval later. */
  restart(): void {
    this.#nextPeriodicAt = this.clock.now() + this.settings.intervalMs;
  }

  /** A periodic trigger time was reached (whether or not a checkpoint could be triggered). */
  fired(): void {
    this.#timer = undefined;
    this.restart();
  }

  /** The next trigger is due now rather than at the interval: still no sooner than min-pause after the last completion, and only with room. */
  expedite(): void {
    this.#nextPeriodicAt = Math.min(this.#nextPeriodicAt, this.clock.now());
  }

  completed(): void {
    this.#lastCompletionAt = this.clock.now();
  }

  /** Arms the timer for the next trigger given `inFlight` checkpoints, or leaves it off while there is no room. */
  reschedule(inFlight: number): void {
    this.cancel();
    const { maxConcurrent, minPauseMs } = this.settings;
    if (inFlight >= maxConcurrent || (minPauseMs > 0 && inFlight > 0)) return;
    const dueAt = Math.max(this.#nextPeriodicAt, this.#lastCompletionAt + minPauseMs);
    this.#timer = this.clock.setTimeout(this.due, Math.max(0, dueAt - this.clock.now()));
  }

  cancel(): void {
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
