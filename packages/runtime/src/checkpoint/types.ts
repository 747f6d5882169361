import type { TaskStateSnapshot } from '@weir/common';
import type { Storage, StorageOpener } from '@weir/storage';

/** How a task takes part in checkpoints; from DeployTask.checkpointing. */
export interface TaskCheckpointing {
  mode: 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';
  backend: 'memory' | 'filesystem' | 'level';
  /** The job's checkpoint directory; task files go to `chk-<n>/...` below it, shared files to `shared/`. Undefined for the memory backend. */
  storage: Storage | undefined;
  /** LevelDB backend: upload only table files no confirmed checkpoint uploaded. */
  incremental: boolean;
  /** LevelDB backend: changelog checkpoints (state.backend.changelog.enabled), materialized this often; undefined when off. */
  changelog?: { readonly materializeIntervalMs: number };
  /** Unaligned checkpoints: barriers overtake queued buffers, which are saved as channel state. */
  unaligned: boolean;
  /** With unaligned: start aligned, switch to unaligned after this long; 0: unaligned from the start. */
  alignedCheckpointTimeoutMs: number;
  /** Opens another directory by URL (a savepoint's target) with the TaskManager's storage settings and clients. */
  openStorage: StorageOpener;
  /** The memory backend's limit per state handle (the bytes one operator's keyed or operator state may take inline). */
  maxInlineBytes: number;
  /** False: serialize and write state before the barrier goes downstream. */
  asyncSnapshots: boolean;
}

/** The task's share of the checkpoint it starts from; from DeployTask.restore. */
export interface TaskRestore {
  checkpointId: number;
  state: TaskStateSnapshot;
  /** the checkpoint directory (holds _metadata); relative handle paths resolve here */
  storage: Storage | undefined;
  /** Its parent, the job's checkpoint directory: `shared` paths of incremental LevelDB handles resolve here. */
  jobStorage: Storage | undefined;
}
