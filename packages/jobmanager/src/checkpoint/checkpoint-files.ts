import { SHARED_STATE_DIR, type CheckpointMetadata, type OperatorSubtaskState } from '@weir/common';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import type { CompletedCheckpoint } from './completed-checkpoint-store.ts';
import { SharedStateRegistry, sharedFilesOf } from './shared-state-registry.ts';

type SubtaskStates = Iterable<OperatorSubtaskState | null | undefined>;

/** A path below the job's directory in a checkpoint's directory. */
const CHECKPOINT_FILE = /^chk-(\d+)\//;

/** Files of the job's checkpoint directory no checkpoint uses, and their bytes. */
export interface LeftBehind {
  readonly files: number;
  readonly bytes: number;
}

/**
 * What of a job's checkpoint directory is deleted, and when: the `chk-<n>` directories of
 * subsumed and failed checkpoints, and the `shared/` files of incremental ones once no
 * checkpoint uses them and no task can build on them again (SharedStateRegistry). Without a
 * storage (the memory backend without a directory) only the bookkeeping runs.
 */
export class CheckpointFiles {
  readonly #shared = new SharedStateRegistry();

  constructor(private readonly storage: JobCheckpointStorage | undefined) {}

  /**
   * Checkpoint `checkpointId` completed and subsumed `subsumed`. `acknowledged` is what the
   * running tasks sent for it, which says what they build on; a savepoint's canonical handles
   * say nothing of that, so a savepoint passes undefined and deletes no shared file.
   */
  completed(checkpointId: number, metadata: CheckpointMetadata, subsumed: readonly CompletedCheckpoint[], acknowledged: SubtaskStates | undefined): void {
    // Registered before the subsumed are released, so files they share with it stay.
    this.#shared.register(checkpointId, metadata);
    for (const old of subsumed) {
      this.#shared.release(old.checkpointId);
      this.storage?.discardCheckpoint(old.checkpointId);
    }
    if (acknowledged !== undefined) this.storage?.discardSharedFiles(this.#shared.collect(acknowledged));
  }

  /**
   * Checkpoint `checkpointId` failed, or a task answered it after it stopped pending: its
   * directory goes, and the shared files of `states` that only it uploaded (a task refers
   * only to uploads of confirmed checkpoints, which are registered or released).
   */
  discard(checkpointId: number, states: SubtaskStates): void {
    this.storage?.discardCheckpoint(checkpointId, this.#shared.unregistered(states));
  }

  /** An attempt restores one of `retained`: shared files only released checkpoints used go. */
  restoring(retained: readonly CompletedCheckpoint[]): void {
    this.storage?.discardSharedFiles(this.#shared.rebuild(retained));
  }

  /**
   * Deletes the `chk-<n>` directories up to `upTo` that `keep` does not name: what a task wrote
   * into an aborted checkpoint's directory after the JobManager deleted it (a task of a failed
   * attempt finishing its upload), and what a JobManager that died left. Only `chk-<n>`
   * directories are swept: `shared/` files are counted by the SharedStateRegistry, and
   * savepoints live in directories of their own. Resolves with the IDs it deleted.
   */
  async sweep(keep: (checkpointId: number) => boolean, upTo: number): Promise<number[]> {
    const ids = (await this.storage?.checkpointDirectoryIds()) ?? [];
    const orphans = ids.filter((id) => id <= upTo && !keep(id));
    for (const id of orphans) this.storage?.discardCheckpoint(id);
    return orphans;
  }

  /**
   * Between two attempts only (every task of the last one stopped, none of the next started):
   * deletes the `shared/` files no retained checkpoint refers to, the uploads of checkpoints
   * in flight when a TaskManager was killed, which no acknowledgement ever named.
   */
  async sweepShared(retained: readonly CompletedCheckpoint[]): Promise<string[]> {
    const files = (await this.storage?.sharedFiles()) ?? [];
    const referenced = new Set(retained.flatMap((c) => sharedFilesOf(c.metadata)));
    const orphans = files.filter((path) => !referenced.has(path));
    this.storage?.discardSharedFiles(orphans);
    return orphans;
  }

  /**
   * What of the job's directory no checkpoint uses, once the deletions in flight ended: files of
   * `chk-<n>` directories up to `upTo` that `keep` does not name and, with `countShared` (no
   * checkpoint in flight, whose uploads no acknowledgement named yet), `shared/` files no
   * retained checkpoint refers to. Undefined without a storage or when it cannot be listed.
   */
  async leftBehind(keep: (checkpointId: number) => boolean, upTo: number, retained: readonly CompletedCheckpoint[], countShared: boolean): Promise<LeftBehind | undefined> {
    await this.storage?.deletionsSettled();
    const files = await this.storage?.filesWithSizes();
    if (files === undefined) return undefined;
    const referenced = new Set(retained.flatMap((c) => sharedFilesOf(c.metadata)));
    let count = 0;
    let bytes = 0;
    for (const file of files) {
      const checkpoint = CHECKPOINT_FILE.exec(file.path);
      const orphan = checkpoint !== null ? Number(checkpoint[1]) <= upTo && !keep(Number(checkpoint[1])) : countShared && file.path.startsWith(`${SHARED_STATE_DIR}/`) && !referenced.has(file.path);
      if (!orphan) continue;
      count++;
      bytes += file.bytes;
    }
    return { files: count, bytes };
  }

  /** The job ended: no task builds on a released file any more. */
  jobEnded(): void {
    this.storage?.discardSharedFiles(this.#shared.abandonReleased());
  }
}
