/**
 * Actions for the task to run between two records, on the task's own loop: the buffer
 * timeout's flush, a cancel, an input channel's failure, checkpoint triggers and
 * notifications. Mail also wakes the loop from any wait, so an idle or backpressured task
 * still reacts.
 */
export class Mailbox {
  readonly #mails: (() => void)[] = [];
  #wake: (() => void) | undefined;

  get hasMail(): boolean {
    return this.#mails.length !== 0;
  }

  put(action: () => void): void {
    this.#mails.push(action);
    const wake = this.#wake;
    if (wake !== undefined) {
      this.#wake = undefined;
      wake();
    }
  }

  /** Runs every queued action, including ones queued meanwhile; an action that throws fails the task. */
  runAll(): void {
    while (this.#mails.length !== 0) this.#mails.shift()!();
  }

  /** Resolves when `promise` resolves or mail arrives, whichever comes first; rejects if `promise` rejects first. */
  waitFor(promise: Promise<void>): Promise<void> {
    if (this.#mails.length !== 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#wake = resolve;
      promise.then(resolve, reject);
    });
  }
}
