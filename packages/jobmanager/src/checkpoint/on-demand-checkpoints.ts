import { WeirError } from '@weir/common';

/** A checkpoint that completed: its ID and the URL of its directory (holds `_metadata`). */
export interface CompletedCheckpointInfo {
  readonly checkpointId: number;
  readonly path: string;
}

interface Waiter {
  readonly resolve: (checkpoint: CompletedCheckpointInfo) => void;
  readonly reject: (error: WeirError) => void;
}

/**
 * The callers waiting for checkpoints triggered on demand (Flink 1.19's triggerCheckpoint):
 * each is answered when its checkpoint completes or fails. A trigger can fail while it is still
 * being sent (a TaskManager not connected aborts it at once), before its ID is known to the
 * caller: such a failure is kept for the trigger that is running.
 */
export class OnDemandCheckpoints {
  readonly #waiters = new Map<number, Waiter>();
  #triggering = false;
  readonly #early = new Map<number, WeirError>();

  /** Runs `start` (which triggers and returns the checkpoint's ID, or throws) and waits for that checkpoint. */
  trigger(start: () => number): Promise<CompletedCheckpointInfo> {
    this.#triggering = true;
    let checkpointId: number;
    try {
      checkpointId = start();
    } finally {
      this.#triggering = false;
    }
    const early = this.#early.get(checkpointId);
    this.#early.clear();
    if (early !== undefined) return Promise.reject(early);
    return new Promise((resolve, reject) => this.#waiters.set(checkpointId, { resolve, reject }));
  }

  completed(checkpoint: CompletedCheckpointInfo): void {
    this.#waiters.get(checkpoint.checkpointId)?.resolve(checkpoint);
    this.#waiters.delete(checkpoint.checkpointId);
  }

  failed(checkpointId: number, error: WeirError): void {
    if (this.#triggering) this.#early.set(checkpointId, error);
    this.#waiters.get(checkpointId)?.reject(error);
    this.#waiters.delete(checkpointId);
  }

  /** The JobManager shuts down: nobody will answer the waiting callers otherwise. */
  failAll(error: WeirError): void {
    for (const waiter of this.#waiters.values()) waiter.reject(error);
    this.#waiters.clear();
  }
}
