/**
 * Back pressure from an operator inside a chain to everything that feeds it on the task's
 * loop: an async operator whose queue is at capacity (Flink's AsyncWaitOperator, which yields
 * to the mailbox inside `processElement` until a slot frees). A JavaScript `collect` cannot
 * suspend, so the feeders look here instead, between two records: the task loop takes no
 * input and the timer services fire no timer while `blocked` is not zero. The blocked
 * operator's own completions (mail) still run, so it unblocks itself: nothing that unblocks it
 * waits behind it.
 */
export class ChainBackPressure {
  /** Operators of the chain that take no more input now; a field read on the per-record path. */
  blocked = 0;
  #waiters: (() => void)[] = [];

  /** Marks one operator blocked; the returned function unblocks it (once, however often called). */
  block(): () => void {
    this.blocked++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.blocked !== 0) return;
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const wake of waiters) wake();
    };
  }

  /** Resolves once no operator of the chain is blocked (at once when none is). */
  whenUnblocked(): Promise<void> {
    if (this.blocked === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
