import type { CheckpointMetadata, OperatorSubtaskState } from '@weir/common';

/**
 * Which retained checkpoints use each shared file of incremental LevelDB checkpoints (paths
 * relative to the job's checkpoint directory, `shared/...`), so a file is deleted exactly when
 * the last checkpoint using it goes. Only the job's own checkpoints register: shared files of
 * a checkpoint another job left behind (weir run -s) belong to that job's directory.
 */
export class SharedStateRegistry {
  /** Path → IDs of the registered checkpoints referencing it. */
  readonly #users = new Map<string, Set<number>>();
  /** Checkpoint ID → the shared paths it references. */
  readonly #files = new Map<number, readonly string[]>();

  /** Records the shared files of a completed checkpoint; registering one again changes nothing. */
  register(checkpointId: number, metadata: CheckpointMetadata): void {
    if (this.#files.has(checkpointId)) return;
    const paths = sharedFilesOf(metadata);
    this.#files.set(checkpointId, paths);
    for (const path of paths) {
      const users = this.#users.get(path) ?? new Set<number>();
      users.add(checkpointId);
      this.#users.set(path, users);
    }
  }

  /** Forgets a subsumed or discarded checkpoint and returns the shared files nothing registered uses any more: the caller deletes them. */
  release(checkpointId: number): string[] {
    const paths = this.#files.get(checkpointId);
    if (paths === undefined) return [];
    this.#files.delete(checkpointId);
    const unused: string[] = [];
    for (const path of paths) {
      const users = this.#users.get(path)!;
      users.delete(checkpointId);
      if (users.size === 0) {
        this.#users.delete(path);
        unused.push(path);
      }
    }
    return unused;
  }

  /**
   * Of the shared files in `states` (what tasks acknowledged for a checkpoint that then failed
   * or expired), those no registered checkpoint uses: garbage, since a task refers only to
   * uploads of confirmed checkpoints.
   */
  unregistered(states: Iterable<OperatorSubtaskState | null | undefined>): string[] {
    return sharedFilesIn(states).filter((path) => !this.#users.has(path));
  }

  /** Starts over from the retained checkpoints' `_metadata`, oldest or newest first alike. */
  rebuild(retained: readonly { readonly checkpointId: number; readonly metadata: CheckpointMetadata }[]): void {
    this.#users.clear();
    this.#files.clear();
    for (const { checkpointId, metadata } of retained) this.register(checkpointId, metadata);
  }

  /** Shared paths in use and how many checkpoints use each, for tests and diagnostics. */
  references(): Map<string, number> {
    return new Map([...this.#users].map(([path, users]) => [path, users.size]));
  }
}

/** The distinct shared paths a checkpoint's LevelDB handles reference. */
export function sharedFilesOf(metadata: CheckpointMetadata): string[] {
  return sharedFilesIn(metadata.operators.flatMap((operator) => operator.subtasks));
}

/** The distinct shared paths the LevelDB handles of `states` reference. */
export function sharedFilesIn(states: Iterable<OperatorSubtaskState | null | undefined>): string[] {
  const paths = new Set<string>();
  for (const state of states) {
    for (const handle of state?.keyed ?? []) {
      if (handle.backend !== 'level') continue;
      for (const file of handle.files) if (file.location === 'shared') paths.add(file.path);
    }
  }
  return [...paths];
}
