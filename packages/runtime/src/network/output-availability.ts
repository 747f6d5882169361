/**
 * Whether a task may produce more output. Every subpartition whose queue has reached the
 * limit holds one block; the task loop checks `blocked` between records, so a full queue
 * stops the task until its consumer drains it.
 */
export class OutputAvailability {
  blocked = 0;
  #waiter: (() => void) | undefined;

  block(): void {
    this.blocked++;
  }

  unblock(): void {
    this.blocked--;
    if (this.blocked === 0 && this.#waiter !== undefined) {
      const wake = this.#waiter;
      this.#waiter = undefined;
      wake();
    }
  }

  whenAvailable(): Promise<void> {
    if (this.blocked === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.#waiter;
      this.#waiter = previous === undefined ? resolve : () => (previous(), resolve());
    });
  }
}
