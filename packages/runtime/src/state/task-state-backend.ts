import type { LevelTuning } from './level/level-store.ts';

/**
 * Where a task's keyed state lives, with or without checkpoints (Flink's state.backend); from
 * DeployTask.keyed_state_backend and the TaskManager's own settings. Checkpointing decides only
 * whether and how this state is snapshotted (TaskCheckpointing).
 */
export type TaskStateBackend =
  | { readonly kind: 'heap' }
  | {
      readonly kind: 'level';
      /** The TaskManager's directory for LevelDB state (state.backend.rocksdb.localdir); each task keeps its DBs below it and removes them when it ends. */
      readonly localStateDir: string;
      /** LevelDB's options of the TaskManager (state.backend.rocksdb.*); the defaults when unset. */
      readonly levelTuning?: LevelTuning;
    };

/** What a task gets when nobody says otherwise. */
export const HEAP_STATE_BACKEND: TaskStateBackend = Object.freeze({ kind: 'heap' });
