import type { Logger } from '@weir/common';
import type { CheckpointFiles } from './checkpoint-files.ts';
import type { LeftBehindCount } from './checkpoint-history.ts';
import type { CompletedCheckpoint } from './completed-checkpoint-store.ts';

/** Every this many completed checkpoints the job's checkpoint directory is swept (listing it costs a request per 1000 files on S3). */
const SWEEP_EVERY_COMPLETED = 10;

/** What the sweeper asks of the coordinator. */
export interface SweptJob {
  /** Whether checkpoint `id` is retained, pending, being finalized, corrupt or a savepoint. */
  inUse(checkpointId: number): boolean;
  /** The retained checkpoints, newest first. */
  retained(): readonly CompletedCheckpoint[];
  /** No checkpoint is pending or being finalized: every `shared/` upload is named by a completed one. */
  nothingInFlight(): boolean;
}


/**
 * Removes what no checkpoint uses from a job's checkpoint directory: `chk-<n>` directories
 * written into after their checkpoint was aborted, and, between attempts, `shared/` uploads no
 * retained checkpoint refers to. It sweeps after each restore, every 10 completed checkpoints,
 * and when the job ends, and after each sweep counts what is still left behind (a deletion that
 * failed, files written after it), for `weir checkpoints`.
 */
export class CheckpointSweeper {
  #completedSinceSweep = 0;
  /** The job ended or this JobManager stopped leading it: nothing more is deleted (another leader may own the directory). */
  #released = false;
  #leftBehind: LeftBehindCount | undefined;

  constructor(
    private readonly files: CheckpointFiles,
    private readonly job: SweptJob,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  /** The job ended or this JobManager stopped leading it: the storage is released, nothing is deleted any more. */
  get released(): boolean {
    return this.#released;
  }

  /** What the last count after a sweep found left behind; undefined before the first or without a storage. */
  get leftBehind(): LeftBehindCount | undefined {
    return this.#leftBehind;
  }

  /**
   * The last attempt's tasks have stopped: their aborted checkpoints' directories go, and (when
   * none pends) their shared uploads no retained checkpoint refers to. Resolves once `shared/`
   * is listed, which must come before the next attempt's tasks upload: a file of theirs in the
   * listing would be deleted. (`chk-<n>` directories of the next attempt are above the last ID.)
   */
  async attemptEnded(lastCheckpointId: number): Promise<void> {
    if (this.#released) return;
    const shared = this.job.nothingInFlight() ? this.files.sweepShared(this.job.retained()) : Promise.resolve([]);
    void Promise.all([this.#sweepDirectories(lastCheckpointId), shared]).then(() => this.count(lastCheckpointId));
    await shared;
  }

  checkpointCompleted(lastCheckpointId: number): void {
    if (++this.#completedSinceSweep >= SWEEP_EVERY_COMPLETED) void this.sweep(lastCheckpointId).then(() => this.count(lastCheckpointId));
  }

  release(): void {
    this.#released = true;
  }

  /** Deletes the `chk-<n>` directories up to `lastCheckpointId` that no checkpoint uses (CheckpointFiles.sweep). */
  async sweep(lastCheckpointId: number): Promise<void> {
    await this.#sweepDirectories(lastCheckpointId);
  }

  /** Counts the files no checkpoint uses (CheckpointFiles.leftBehind) once the deletions in flight ended. */
  async count(lastCheckpointId: number): Promise<void> {
    if (this.#released) return;
    const found = await this.files.leftBehind((id) => this.job.inUse(id), lastCheckpointId, this.job.retained(), this.job.nothingInFlight());
    if (found === undefined || this.#released) return;
    this.#leftBehind = { ...found, countedAtMs: this.now() };
    if (found.files !== 0) this.logger.info(found, 'files no checkpoint uses are left behind in the checkpoint directory');
  }

  async #sweepDirectories(lastCheckpointId: number): Promise<void> {
    this.#completedSinceSweep = 0;
    if (this.#released) return;
    const swept = await this.files.sweep((id) => this.job.inUse(id), lastCheckpointId);
    if (swept.length !== 0) this.logger.info({ checkpointIds: swept }, 'deleting checkpoint directories no checkpoint uses (written into after their checkpoint was aborted)');
  }
}
