export const RECONNECT_INITIAL_MS = 500;
export const RECONNECT_MAX_MS = 5_000;

/** Delays between attempts to reach the JobManager: doubling from 500 ms to 5 s, back to 500 ms once registered. */
export class ReconnectBackoff {
  #next = RECONNECT_INITIAL_MS;

  next(): number {
    const delay = this.#next;
    this.#next = Math.min(this.#next * 2, RECONNECT_MAX_MS);
    return delay;
  }

  reset(): void {
    this.#next = RECONNECT_INITIAL_MS;
  }
}
