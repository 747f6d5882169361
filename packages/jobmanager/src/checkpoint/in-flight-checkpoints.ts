import type { Clock } from '@weir/common';
import type { PendingCheckpoint } from './pending-checkpoint.ts';

/**
 * A job's checkpoints in flight: pending ones (waiting for acknowledgements, each with its
 * expiry timer) and those whose `_metadata` is being written. A checkpoint leaves `pending`
 * when it is finalized or aborted, and its timer is cleared then.
 */
export class InFlightCheckpoints {
  readonly #pending = new Map<number, PendingCheckpoint>();
  /** Checkpoints with every ack in whose `_metadata` is being written. */
  readonly #finalizing = new Map<number, Promise<void>>();

  constructor(private readonly clock: Clock) {}

  /** Pending and finalizing together: what the trigger schedule counts against max-concurrent. */
  get size(): number {
    return this.#pending.size + this.#finalizing.size;
  }

  get(checkpointId: number): PendingCheckpoint | undefined {
    return this.#pending.get(checkpointId);
  }

  /** `pending` is still the pending checkpoint of its ID (not finalized, aborted or replaced). */
  isPending(pending: PendingCheckpoint): boolean {
    return this.#pending.get(pending.checkpointId) === pending;
  }

  /** Checkpoint `id` is pending or being finalized: its files stay. */
  has(checkpointId: number): boolean {
    return this.#pending.has(checkpointId) || this.#finalizing.has(checkpointId);
  }

  /** A snapshot of the pending checkpoints, safe to abort while iterating. */
  pending(): PendingCheckpoint[] {
    return [...this.#pending.values()];
  }

  add(pending: PendingCheckpoint, timeoutMs: number, onExpire: (pending: PendingCheckpoint) => void): void {
    pending.timeout = this.clock.setTimeout(() => {
      pending.timeout = undefined;
      if (this.isPending(pending)) onExpire(pending);
    }, timeoutMs);
    this.#pending.set(pending.checkpointId, pending);
  }

  /** `pending` stops pending (finalized or aborted): its expiry is cleared. */
  remove(pending: PendingCheckpoint): void {
    this.#pending.delete(pending.checkpointId);
    this.#clearTimeout(pending);
  }

  /** `_metadata` of `checkpointId` is being written by `writing`; it counts as in flight until that settles, then `settled` runs. */
  finalizing(checkpointId: number, writing: Promise<void>, settled: () => void): void {
    const tracked = writing.finally(() => {
      this.#finalizing.delete(checkpointId);
      settled();
    });
    this.#finalizing.set(checkpointId, tracked);
  }

  /** The `_metadata` writes in flight now. */
  finalizingWrites(): Promise<void>[] {
    return [...this.#finalizing.values()];
  }

  /** Resolves once the `_metadata` writes in flight now have settled. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#finalizing.values());
  }

  /** The JobManager shuts down: no expiry fires any more; the checkpoints stay as they are. */
  clearTimeouts(): void {
    for (const pending of this.#pending.values()) this.#clearTimeout(pending);
  }

  #clearTimeout(pending: PendingCheckpoint): void {
    if (pending.timeout !== undefined) this.clock.clearTimeout(pending.timeout);
    pending.timeout = undefined;
  }
}
