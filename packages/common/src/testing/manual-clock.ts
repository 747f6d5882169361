import type { Clock, TimerHandle } from '../clock.ts';

/** A clock for tests: time only moves when `advance` is called, and due timers fire then, in order. */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + Math.max(0, delayMs), callback });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle.id);
  }

  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let dueId: number | undefined;
      let dueAt = Infinity;
      for (const [id, timer] of this.#timers) {
        if (timer.at <= target && timer.at < dueAt) {
          dueId = id;
          dueAt = timer.at;
        }
      }
      if (dueId === undefined) break;
      const timer = this.#timers.get(dueId)!;
      this.#timers.delete(dueId);
      this.#now = Math.max(this.#now, timer.at);
      timer.callback();
    }
    this.#now = target;
  }
}
