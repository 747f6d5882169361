/**
 * Time as the runtime sees it. Production code takes a Clock instead of calling Date.now and
 * setTimeout, so timeouts (heartbeats, slot requests, buffer flushes) are tested by
 * advancing a ManualClock (`@weir/common/testing`) instead of sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly id: number;
}

export const systemClock: Clock = (() => {
  const timers = new Map<number, NodeJS.Timeout>();
  let nextId = 1;
  return {
    now: () => Date.now(),
    setTimeout(callback, delayMs) {
      const id = nextId++;
      const timer = setTimeout(() => {
        timers.delete(id);
        callback();
      }, delayMs);
      timers.set(id, timer);
      return { id };
    },
    clearTimeout(handle) {
      const timer = timers.get(handle.id);
      if (timer !== undefined) {
        clearTimeout(timer);
        timers.delete(handle.id);
      }
    },
  };
})();
