import type { Logger } from '@weir/common';
import type { CheckpointFiles } from './checkpoint-files.ts';
import type { CompletedCheckpoint } from './completed-checkpoint-store.ts';

/** Every this many completed checkpoints the job's checkpoint directory is swept (listing it costs a request per 1000 files on S3). */
const SWEEP_EVERY_COMPLETED = 10;

/**
 * Removes what no checkpoint uses from a job's checkpoint directory: `chk-<n>` directories
 * written into after their checkpoint was aborted, and, between attempts, `shared/` uploads no
 * retained checkpoint refers to. It sweeps after each restore, every 10 completed checkpoints,
 * and when the job ends.
 */
export class CheckpointSweeper {
  #completedSinceSweep = 0;
  /** The job ended or this JobManager stopped leading it: nothing more is deleted (another leader may own the directory). */
  #released = false;

  constructor(
    private readonly files: CheckpointFiles,
    /** Whether checkpoint `id` is retained, pending, being finalized, corrupt or a savepoint. */
    private readonly inUse: (checkpointId: number) => boolean,
    private readonly logger: Logger,
  ) {}

  /** The last attempt's tasks have stopped: their aborted checkpoints' directories go, and (when none pends) their shared uploads no retained checkpoint refers to. */
  attemptEnded(lastCheckpointId: number, retained: readonly CompletedCheckpoint[], nonePending: boolean): void {
    if (this.#released) return;
    void this.sweep(lastCheckpointId);
    if (nonePending) void this.files.sweepShared(retained);
  }

  checkpointCompleted(lastCheckpointId: number): void {
    if (++this.#completedSinceSweep >= SWEEP_EVERY_COMPLETED) void this.sweep(lastCheckpointId);
  }

  /** The job ended or this JobManager stopped leading it: the storage is released, nothing is deleted any more. */
  get released(): boolean {
    return this.#released;
  }

  release(): void {
    this.#released = true;
  }

  /** Deletes the `chk-<n>` directories up to `lastCheckpointId` that no checkpoint uses (CheckpointFiles.sweep). */
  async sweep(lastCheckpointId: number): Promise<void> {
    this.#completedSinceSweep = 0;
    if (this.#released) return;
    const swept = await this.files.sweep(this.inUse, lastCheckpointId);
    if (swept.length !== 0) this.logger.info({ checkpointIds: swept }, 'deleting checkpoint directories no checkpoint uses (written into after their checkpoint was aborted)');
  }
}
