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

/** The retained completed checkpoints of a job, oldest first, at most `numRetained` of them. */
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
