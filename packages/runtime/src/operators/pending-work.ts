import { ChainBackPressure } from './chain-back-pressure.ts';

/**
 * Asynchronous work that must complete before the task takes the next record: a sink's
 * `write` that returned a promise, or a step (a checkpoint's synchronous part, a checkpoint
 * notification) that starts only once everything queued before it completed. The task loop
 * checks `count` between records (a field read, nothing allocated) and awaits `drain()` only
 * when it is not zero.
 */
export class PendingWork {
  count = 0;
  readonly #queue: (Promise<void> | (() => Promise<void>))[] = [];
  #draining: Promise<void> | undefined;
  /**
   * True while a step runs (a checkpoint's synchronous part until its barrier is out): mail
   * that would emit records (an async operator's completed results) waits for it, so nothing
   * gets between a snapshot and its barrier.
   */
  stepRunning = false;
  /** An operator of the chain that takes no more input now (an async operator at capacity). */
  readonly chain = new ChainBackPressure();

  add(promise: Promise<void>): void {
    // Handled here so a rejection is never "unhandled"; drain() still rethrows it.
    promise.catch(() => {});
    this.#queue.push(promise);
    this.count++;
  }

  /**
   * Runs `action` (mail that emits records: a processing-time timer, an async result) now, or,
   * while a step runs, as a step after it. A checkpoint's synchronous part awaits its state
   * backend, and the task loop runs mail meanwhile: records emitted then would get between
   * the snapshot and its barrier, and a restore would emit them again (the timer is still in
   * the snapshot).
   */
  runOrDefer(action: () => void): void {
    if (this.stepRunning) this.addStep(async () => action());
    else action();
  }

  /**
   * For a running step that feeds the chain (timers firing in slices): waits while the chain is
   * back-pressured, letting mail run at once meanwhile, as Flink's MailboxExecutor.yield. The
   * blocked operator's completions are such mail; deferred behind this step, they would never
   * come. Only call it between two records, never between a snapshot and its barrier.
   */
  async yieldWhileBlocked(): Promise<void> {
    if (this.chain.blocked === 0) return;
    const running = this.stepRunning;
    this.stepRunning = false;
    try {
      await this.chain.whenUnblocked();
    } finally {
      this.stepRunning = running;
    }
  }

  /** Queues `step`, to start when the work before it is done (while draining). */
  addStep(step: () => Promise<void>): void {
    this.#queue.push(step);
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
    const queue = this.#queue;
    while (queue.length > 0) {
      let head = queue[0]!;
      if (typeof head === 'function') {
        this.stepRunning = true;
        head = head();
        head.catch(() => {});
        // Kept in place as its promise: a failed step keeps failing later drains instead of running again.
        queue[0] = head;
        try {
          await head;
        } finally {
          this.stepRunning = false;
        }
      }
      await head;
      queue.shift();
      this.count--;
    }
  }
}
