import { checkpointStateBytes } from '@weir/common';
import type { CheckpointCoordinatorDeps } from './checkpoint-coordinator-deps.ts';
import type { CheckpointFiles } from './checkpoint-files.ts';
import type { CheckpointHistory } from './checkpoint-history.ts';
import type { CheckpointIds } from './checkpoint-ids.ts';
import type { CheckpointSweeper } from './checkpoint-sweeper.ts';
import type { CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import type { InFlightCheckpoints } from './in-flight-checkpoints.ts';
import { loadRestoreOutcome, type InitialRestore, type RestoreOutcome, type RestorePoint } from './restore-point.ts';

export interface CheckpointRestoresParts {
  readonly deps: CheckpointCoordinatorDeps;
  readonly store: CompletedCheckpointStore;
  readonly inFlight: InFlightCheckpoints;
  readonly files: CheckpointFiles;
  readonly sweeper: CheckpointSweeper;
  readonly ids: CheckpointIds;
  readonly history: CheckpointHistory;
}

/**
 * The checkpoint coordinator's side of restores: which checkpoint the next attempt restores,
 * the retained checkpoints found corrupt (never restored again), and whether the next attempt
 * restores, so its first checkpoint is due at once (CheckpointCoordinator.start).
 */
export class CheckpointRestores {
  /** Retained checkpoints a restore found corrupt, with why: never restored again. */
  readonly #corrupt = new Map<number, string>();
  #restoring = false;

  constructor(private readonly parts: CheckpointRestoresParts) {}

  /**
   * What the next attempt restores, once the `_metadata` writes in flight have settled: the
   * latest usable retained checkpoint, else `initial` (the savepoint the job was submitted with).
   */
  async outcome(initial?: InitialRestore): Promise<RestoreOutcome> {
    const { deps, store, inFlight, files, sweeper, ids } = this.parts;
    await inFlight.settled();
    const { jobId, jobGraph, storage, logger } = deps;
    files.restoring(store.newestFirst());
    const outcome = await loadRestoreOutcome({ jobId, jobGraph, store, storage, logger, initial, corrupt: this.#corrupt });
    await sweeper.attemptEnded(ids.last);
    return outcome;
  }

  /**
   * A task found checkpoint `checkpointId`'s state corrupt while restoring it: no attempt
   * restores it again, the previous retained checkpoint is tried instead. It stays retained
   * (and its files in place), to be looked at.
   */
  corrupt(checkpointId: number, why: string): void {
    this.#corrupt.set(checkpointId, why);
  }

  isCorrupt(checkpointId: number): boolean {
    return this.#corrupt.has(checkpointId);
  }

  /** The next attempt starts from `point`: IDs continue above it. */
  restored(point: RestorePoint): void {
    this.parts.history.restored({
      checkpointId: point.checkpointId,
      restoreTimestampMs: this.parts.deps.clock.now(),
      isSavepoint: point.metadata.kind === 'savepoint',
      externalPath: point.checkpointPath,
      stateBytes: checkpointStateBytes(point.metadata),
    });
    this.parts.ids.observe(point.checkpointId);
    this.#restoring = true;
  }

  /** Whether the attempt starting now restores (asked once per attempt). */
  takeRestoring(): boolean {
    const restoring = this.#restoring;
    this.#restoring = false;
    return restoring;
  }
}
