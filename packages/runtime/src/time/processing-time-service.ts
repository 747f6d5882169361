import type { Clock, TimerHandle } from '@weir/common';

/**
 * Processing time for the operators of one task (Flink's ProcessingTimeService): the task's
 * injected clock, and callbacks at a time that run as mail on the task's loop, between two
 * records, never concurrently with one. `shutdown` (end of input, task end) cancels what is
 * pending and ignores later registrations, as Flink quiesces its timer service.
 */
export class ProcessingTimeService {
  readonly #pending = new Set<TimerHandle>();
  #quiesced = false;

  constructor(
    private readonly clock: Clock,
    /** Runs an action on the task's loop (Mailbox.put). */
    private readonly mail: (action: () => void) => void,
  ) {}

  currentProcessingTime(): number {
    return this.clock.now();
  }

  /** Calls `callback(time)` on the task's loop once the clock reaches `time` (at once if it did). Returns a cancel function. */
  registerTimer(time: number, callback: (time: number) => void): () => void {
    if (this.#quiesced) return noop;
    let handle: TimerHandle | undefined;
    const fire = (): void => {
      this.#pending.delete(handle!);
      this.mail(() => {
        if (!this.#quiesced) callback(time);
      });
    };
    handle = this.clock.setTimeout(fire, Math.max(0, time - this.clock.now()));
    this.#pending.add(handle);
    const registered = handle;
    return () => {
      if (this.#pending.delete(registered)) this.clock.clearTimeout(registered);
    };
  }

  get isQuiesced(): boolean {
    return this.#quiesced;
  }

  shutdown(): void {
    this.#quiesced = true;
    for (const handle of this.#pending) this.clock.clearTimeout(handle);
    this.#pending.clear();
  }
}

const noop = (): void => {};
