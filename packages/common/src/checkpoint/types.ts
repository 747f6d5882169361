import type { KeyGroupRange } from '../key-groups.ts';

/**
 * What a checkpoint is made of, shared by the tasks that write state and the JobManager that
 * writes `_metadata`, restores and deletes. All of it is plain JSON.
 *
 * Paths in handles are relative to the directory that holds the checkpoint's `_metadata`
 * (`<job checkpoint dir>/chk-<n>/`), so a checkpoint or savepoint directory can be moved.
 */

/** Bytes of state: inline (memory backend: carried in the ack and in `_metadata`) or a file. */
export type StreamStateHandle =
  | { readonly kind: 'inline'; /** base64 */ readonly data: string; readonly size: number }
  | { readonly kind: 'file'; readonly path: string; readonly size: number };

/** One state as its serializer described it, checked on restore (schema evolution). */
export interface StateMetaInfo {
  readonly kind: 'value' | 'list' | 'map' | 'reducing';
  /** TypeDescription JSON of the value type (and `keyType` for map state). */
  readonly type: unknown;
  readonly keyType?: unknown;
}

/**
 * Keyed state of one operator subtask, written key group by key group so a restore at
 * another parallelism can pick whole key groups: `offsets[i]` is where key group
 * `keyGroupRange.start + i` starts inside the handle's bytes.
 */
export interface KeyedStateHandle {
  readonly backend: 'heap';
  readonly keyGroupRange: KeyGroupRange;
  readonly offsets: readonly number[];
  readonly handle: StreamStateHandle;
  readonly states: Readonly<Record<string, StateMetaInfo>>;
}

/**
 * Operator (non-keyed) state of one operator subtask: named lists, redistributed on rescale
 * round-robin (`split`) or given whole to every subtask (`union`). Source reader positions,
 * sink writer state and pending sink committables are operator state too.
 */
export interface OperatorStateHandle {
  readonly handle: StreamStateHandle;
  readonly states: Readonly<Record<string, { readonly mode: 'split' | 'union' }>>;
}

export interface OperatorSubtaskState {
  readonly keyed?: readonly KeyedStateHandle[];
  readonly operator?: readonly OperatorStateHandle[];
}

/** A task's acknowledgement and restore payload: state per operator ID of its chain. */
export interface TaskStateSnapshot {
  readonly operators: Readonly<Record<string, OperatorSubtaskState>>;
}

/** The `_metadata` file: written last and atomically; a directory without it is no checkpoint. */
export interface CheckpointMetadata {
  readonly version: 1;
  readonly kind: 'checkpoint' | 'savepoint';
  readonly jobId: string;
  readonly jobName: string;
  readonly checkpointId: number;
  readonly timestamp: number;
  readonly operators: readonly OperatorMetadata[];
}

export interface OperatorMetadata {
  readonly operatorId: string;
  readonly uid: string | undefined;
  readonly name: string;
  readonly parallelism: number;
  readonly maxParallelism: number;
  /** Index = subtask index; null for a subtask with no state. */
  readonly subtasks: readonly (OperatorSubtaskState | null)[];
}

export const METADATA_FILE = '_metadata';

/** The directory of checkpoint `n` below the job's checkpoint directory. */
export function checkpointDirName(checkpointId: number): string {
  return `chk-${checkpointId}`;
}

/** Why a checkpoint did not complete: the reason codes that reach the CLI, logs and history. */
export const CheckpointFailureReason = {
  /** It did not complete within the checkpoint timeout. */
  EXPIRED: 'CHECKPOINT_EXPIRED',
  /** A task declined it without a more specific reason. */
  DECLINED: 'CHECKPOINT_DECLINED',
  /** A newer checkpoint's barrier overtook it during alignment. */
  SUBSUMED: 'CHECKPOINT_SUBSUMED',
  /** Writing state or `_metadata` to checkpoint storage failed (disk full, not writable, S3 down). */
  STORAGE_FAILURE: 'CHECKPOINT_STORAGE_FAILURE',
  /** A task's snapshot is larger than the memory backend allows. */
  STATE_TOO_LARGE: 'CHECKPOINT_STATE_TOO_LARGE',
  /** A user function's snapshotState threw. */
  SNAPSHOT_FAILED: 'CHECKPOINT_SNAPSHOT_FAILED',
  /** A task failed or the job failed over while it was pending. */
  TASK_FAILURE: 'CHECKPOINT_TASK_FAILURE',
  /** A task it needed was not running when it was triggered. */
  TASK_NOT_READY: 'CHECKPOINT_TASK_NOT_READY',
  /** The job was cancelled, finished or suspended while it was pending. */
  JOB_ENDED: 'CHECKPOINT_JOB_ENDED',
} as const;
export type CheckpointFailureReason = (typeof CheckpointFailureReason)[keyof typeof CheckpointFailureReason];
