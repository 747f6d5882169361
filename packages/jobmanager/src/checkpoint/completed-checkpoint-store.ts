import type { CheckpointMetadata } from '@weir/common';

/** A checkpoint whose `_metadata` was written: restorable until it is subsumed. */
export interface CompletedCheckpoint {
  readonly checkpointId: number;
  readonly timestamp: number;
  /** What was written to `_metadata`; the only copy when the memory backend has no directory. */
  readonly metadata: CheckpointMetadata;
  /** URL of the directory holding `_metadata`; empty when it is kept in the JobManager's memory. */
  readonly externalPath: string;
}

/**
 * The retained completed checkpoints of a job, oldest first, at most `numRetained` of them. IDs
 * only grow: a checkpoint that completes after a newer one is subsumed by it (`subsumedByNewer`).
 */
export class CompletedCheckpointStore {
  readonly #checkpoints: CompletedCheckpoint[] = [];

  constructor(private readonly numRetained: number) {}

  /** Adds a checkpoint and returns the ones it subsumed (beyond num-retained), oldest first. */
  add(checkpoint: CompletedCheckpoint): CompletedCheckpoint[] {
    this.#checkpoints.push(checkpoint);
    const excess = this.#checkpoints.length - this.numRetained;
    return excess > 0 ? this.#checkpoints.splice(0, excess) : [];
  }

  /** Newest first: the order a restore tries them in. */
  newestFirst(): CompletedCheckpoint[] {
    return [...this.#checkpoints].reverse();
  }

  /** The highest retained checkpoint ID, 0 with none. */
  get newestId(): number {
    return this.#checkpoints.reduce((newest, c) => Math.max(newest, c.checkpointId), 0);
  }

  has(checkpointId: number): boolean {
    return this.#checkpoints.some((c) => c.checkpointId === checkpointId);
  }

  get size(): number {
    return this.#checkpoints.length;
  }

  /** Empties the store and returns what it held. */
  clear(): CompletedCheckpoint[] {
    return this.#checkpoints.splice(0);
  }
}

/**
 * Why checkpoint `checkpointId`, written after a newer retained one completed, is subsumed by
 * it; undefined while it is newer than every retained one.
 */
export function subsumedByNewer(store: CompletedCheckpointStore, checkpointId: number): string | undefined {
  const newest = store.newestId;
  return newest > checkpointId ? `checkpoint ${newest} completed while its _metadata was being written` : undefined;
}
