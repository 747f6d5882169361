/**
 * Asynchronous work that must complete before the task takes the next record: a sink's
 * `write` that returned a promise. The task loop checks `count` between records (a field
 * read, nothing allocated) and awaits `drain()` only when it is not zero.
 */
export class PendingWork {
  count = 0;
  readonly #promises: Promise<void>[] = [];
  #draining: Promise<void> | undefined;

  add(promise: Promise<void>): void {
    // Handled here so a rejection is never "unhandled"; drain() still rethrows it.
    promise.catch(() => {});
    this.#promises.push(promise);
    this.count++;
  }

  /** Resolves when all work is done; rejects with the first failure, and keeps rejecting on later calls. */
  drain(): Promise<void> {
    if (this.#draining === undefined) {
      const draining = this.#drainAll();
      this.#draining = draining;
      draining.then(
        () => (this.#draining = undefined),
        () => (this.#draining = undefined),
      );
    }
    return this.#draining;
  }

  async #drainAll(): Promise<void> {
    while (this.#promises.length > 0) {
      await this.#promises[0];
      this.#promises.shift();
      this.count--;
    }
  }
}
