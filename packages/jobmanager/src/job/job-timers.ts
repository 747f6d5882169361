import type { Clock, TimerHandle } from '@weir/common';

export const JobTimer = {
  /** The job waits for enough free slots: slot.request.timeout. */
  SLOT_REQUEST: 'slot-request',
  /** The pause the restart strategy chose before the next attempt. */
  RESTART_DELAY: 'restart-delay',
} as const;
export type JobTimer = (typeof JobTimer)[keyof typeof JobTimer];

/** At most one running timer of each kind per job; `fire` turns an elapsed one into a job event. */
export class JobTimers {
  readonly #handles = new Map<JobTimer, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly fire: (timer: JobTimer) => void,
  ) {}

  /** (Re)starts `timer`. */
  start(timer: JobTimer, delayMs: number): void {
    this.stop(timer);
    this.#handles.set(
      timer,
      this.clock.setTimeout(() => {
        this.#handles.delete(timer);
        this.fire(timer);
      }, delayMs),
    );
  }

  stop(timer: JobTimer): void {
    const handle = this.#handles.get(timer);
    if (handle === undefined) return;
    this.clock.clearTimeout(handle);
    this.#handles.delete(timer);
  }

  stopAll(): void {
    for (const timer of [...this.#handles.keys()]) this.stop(timer);
  }
}
