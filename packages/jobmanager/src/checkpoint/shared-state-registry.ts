import { levelHandleFiles, type CheckpointMetadata, type OperatorSubtaskState } from '@weir/common';

/**
 * Which retained checkpoints use each shared file of incremental LevelDB checkpoints (paths
 * relative to the job's checkpoint directory, `shared/...`), so a file is deleted once no
 * checkpoint uses it and no task can refer to it again. Only the job's own checkpoints
 * register: shared files of a checkpoint another job left behind (weir run -s) belong to that
 * job's directory.
 *
 * A task refers to the uploads of the last checkpoint it was told completed (its handle's
 * `baseCheckpointId`), and that news travels apart from the barriers: a task may take
 * checkpoint n+1 on the uploads of n-1 while the completion of n subsumes n-1. So a file no
 * retained checkpoint uses is only released, and deleted once every task builds on a
 * checkpoint newer than the last one that used it, as Flink's registry keeps a
 * last-used checkpoint ID per file. A released file a completed checkpoint refers to is
 * registered again.
 */
export class SharedStateRegistry {
  /** Path → IDs of the registered checkpoints referencing it. */
  readonly #users = new Map<string, Set<number>>();
  /** Checkpoint ID → the shared paths it references. */
  readonly #files = new Map<number, readonly string[]>();
  /** Path → the newest checkpoint that referenced it, for files registered or released. */
  readonly #lastUsed = new Map<string, number>();
  /** Paths no registered checkpoint uses, not yet deleted: a task may still refer to them. */
  readonly #released = new Set<string>();

  /** Records the shared files of a completed checkpoint; registering one again changes nothing. */
  register(checkpointId: number, metadata: CheckpointMetadata): void {
    if (this.#files.has(checkpointId)) return;
    const paths = sharedFilesOf(metadata);
    this.#files.set(checkpointId, paths);
    for (const path of paths) {
      const users = this.#users.get(path) ?? new Set<number>();
      users.add(checkpointId);
      this.#users.set(path, users);
      this.#lastUsed.set(path, Math.max(checkpointId, this.#lastUsed.get(path) ?? 0));
      this.#released.delete(path);
    }
  }

  /** Forgets a subsumed or discarded checkpoint; the shared files nothing registered uses any more are released, for `collect` to return once no task can refer to them. */
  release(checkpointId: number): void {
    const paths = this.#files.get(checkpointId);
    if (paths === undefined) return;
    this.#files.delete(checkpointId);
    for (const path of paths) {
      const users = this.#users.get(path)!;
      users.delete(checkpointId);
      if (users.size === 0) {
        this.#users.delete(path);
        this.#released.add(path);
      }
    }
  }

  /**
   * The released files no task can refer to again, given what every running task acknowledged
   * for a checkpoint that completed: the caller deletes them. A task's base only moves forward,
   * so once every LevelDB handle builds on a checkpoint newer than a file's last user, none
   * will name the file again.
   */
  collect(acknowledged: Iterable<OperatorSubtaskState | null | undefined>): string[] {
    const oldestBase = oldestBaseOf(acknowledged);
    const garbage = [...this.#released].filter((path) => this.#lastUsed.get(path)! < oldestBase);
    for (const path of garbage) this.#forget(path);
    return garbage;
  }

  /** Every released file, forgotten: the job ended or restarts from a retained checkpoint, so no running task refers to them. */
  abandonReleased(): string[] {
    const garbage = [...this.#released];
    for (const path of garbage) this.#forget(path);
    return garbage;
  }

  /**
   * Of the shared files in `states` (what tasks acknowledged for a checkpoint that then failed
   * or expired), those neither registered nor released: garbage, since a task refers only to
   * uploads of confirmed checkpoints.
   */
  unregistered(states: Iterable<OperatorSubtaskState | null | undefined>): string[] {
    return sharedFilesIn(states).filter((path) => !this.#users.has(path) && !this.#released.has(path));
  }

  /**
   * Starts over from the retained checkpoints' `_metadata`, oldest or newest first alike, for
   * an attempt that restores one of them: no task of it refers to anything else, so the
   * released files no retained checkpoint uses are returned, for the caller to delete.
   */
  rebuild(retained: readonly { readonly checkpointId: number; readonly metadata: CheckpointMetadata }[]): string[] {
    this.#users.clear();
    this.#files.clear();
    for (const { checkpointId, metadata } of retained) this.register(checkpointId, metadata);
    return this.abandonReleased();
  }

  /** Shared paths in use and how many checkpoints use each, for tests and diagnostics. */
  references(): Map<string, number> {
    return new Map([...this.#users].map(([path, users]) => [path, users.size]));
  }

  /** Released paths not yet deleted, for tests and diagnostics. */
  released(): string[] {
    return [...this.#released];
  }

  #forget(path: string): void {
    this.#released.delete(path);
    this.#lastUsed.delete(path);
  }
}

/**
 * The oldest checkpoint the incremental LevelDB handles in `states` build on: 0 for one built
 * on the checkpoint its task was restored from (its ID may be another job's) or on nothing,
 * and for one written before handles named their base. Infinity without incremental handles.
 */
function oldestBaseOf(states: Iterable<OperatorSubtaskState | null | undefined>): number {
  let oldest = Infinity;
  for (const state of states) {
    for (const handle of state?.keyed ?? []) {
      if (handle.backend !== 'level') continue;
      if (handle.baseCheckpointId !== undefined) oldest = Math.min(oldest, handle.baseCheckpointId);
      else if (levelHandleFiles(handle).some((file) => file.location === 'shared')) oldest = 0;
    }
  }
  return oldest;
}

/** The distinct shared paths a checkpoint's LevelDB handles reference. */
export function sharedFilesOf(metadata: CheckpointMetadata): string[] {
  return sharedFilesIn(metadata.operators.flatMap((operator) => operator.subtasks));
}

/** The distinct shared paths the LevelDB handles of `states` reference: DB files and changelog segments. */
export function sharedFilesIn(states: Iterable<OperatorSubtaskState | null | undefined>): string[] {
  const paths = new Set<string>();
  for (const state of states) {
    for (const handle of state?.keyed ?? []) {
      if (handle.backend !== 'level') continue;
      for (const file of levelHandleFiles(handle)) if (file.location === 'shared') paths.add(file.path);
    }
  }
  return [...paths];
}
