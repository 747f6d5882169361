import type { Clock, TimerHandle } from '@weir/common';

/**
 * The buffer timeout: armed when a batch gets its first record, it asks the task (through
 * `onDue`, which posts to the mailbox) to flush every partial batch. Armed lazily, so an
 * idle task has no timer ticking.
 */
export interface FlushTimer {
  arm(): void;
  cancel(): void;
}

export const neverFlushTimer: FlushTimer = { arm() {}, cancel() {} };

export class TimeoutFlushTimer implements FlushTimer {
  #handle: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly onDue: () => void,
  ) {}

  arm(): void {
    if (this.#handle !== undefined) return;
    this.#handle = this.clock.setTimeout(() => {
      this.#handle = undefined;
      this.onDue();
    }, this.timeoutMs);
  }

  cancel(): void {
    if (this.#handle === undefined) return;
    this.clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}
