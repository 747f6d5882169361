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
  /** `sha256` (hex) of the bytes as written, checked on restore; absent in checkpoints written before it was recorded. */
  | { readonly kind: 'file'; readonly path: string; readonly size: number; readonly sha256?: string };

/** One state as its serializer described it, checked on restore (schema evolution). */
export interface StateMetaInfo {
  readonly kind: 'value' | 'list' | 'map' | 'reducing';
  /** TypeDescription JSON of the value type (and `keyType` for map state). */
  readonly type: unknown;
  readonly keyType?: unknown;
  /** Set for state with time to live: its values are stored stamped, as `[value, stampedAtMs]`. */
  readonly ttl?: { readonly ttlMs: number; readonly cleanupFullSnapshot: boolean };
}

/**
 * Keyed state of one operator subtask, written key group by key group so a restore at
 * another parallelism can pick whole key groups: `offsets[i]` is where key group
 * `keyGroupRange.start + i` starts inside the handle's bytes.
 *
 * This is also the canonical format: every savepoint writes keyed state this way, whatever
 * the backend, so a savepoint restores into any backend.
 */
export interface HeapKeyedStateHandle {
  readonly backend: 'heap';
  readonly keyGroupRange: KeyGroupRange;
  readonly offsets: readonly number[];
  readonly handle: StreamStateHandle;
  readonly states: Readonly<Record<string, StateMetaInfo>>;
}

/**
 * One file of a LevelDB checkpoint, or one segment of it. `private` files (CURRENT, and every
 * file of a full checkpoint) belong to this checkpoint: `path` is relative to its `chk-<n>`
 * directory. `shared` files were uploaded once by an incremental checkpoint and are referenced
 * by later ones: `path` is relative to the job's checkpoint directory (the parent of
 * `chk-<n>`), e.g. `shared/<operatorId>-<subtask>-<uuid>-000012.ldb`.
 *
 * A table file is immutable, so it is uploaded whole. A log or the MANIFEST only ever grows
 * (LevelDB appends to them and never rewrites a byte), so an incremental checkpoint uploads
 * only the bytes appended since the checkpoint it builds on, as a shared segment, and lists
 * the file as its segments: the entries of one `name` with `offset` set, in order, each
 * starting where the one before ended, the first at 0.
 */
export interface LevelStateFile {
  /** The file's name inside the DB directory (`000012.ldb`, `MANIFEST-000004`, `000009.log`, `CURRENT`). */
  readonly name: string;
  readonly location: 'private' | 'shared';
  readonly path: string;
  readonly size: number;
  /** SHA-256 (hex) of the file (segment) as uploaded, checked on restore; absent in checkpoints written before it was recorded. */
  readonly sha256?: string;
  /** Set on a segment: where its bytes go in the file. Absent: the entry is the whole file. */
  readonly offset?: number;
}

/**
 * Keyed state of one operator subtask on the LevelDB backend: the DB's files as of the
 * checkpoint's synchronous part. Keys start with the key group (2 bytes, big-endian), so a
 * restore at another parallelism copies the key groups of its range out of the DB.
 */
export interface LevelKeyedStateHandle {
  readonly backend: 'level';
  readonly keyGroupRange: KeyGroupRange;
  readonly files: readonly LevelStateFile[];
  readonly states: Readonly<Record<string, StateMetaInfo>>;
  /**
   * Incremental checkpoints: the checkpoint whose shared uploads this one refers to, the last
   * one its task was told completed; 0 when they are the uploads of the checkpoint the task was
   * restored from, or there are none yet. The JobManager deletes a shared file no checkpoint
   * uses only once every task builds on a newer checkpoint than the file's last user. Absent
   * in full checkpoints, and in checkpoints written before it was recorded.
   */
  readonly baseCheckpointId?: number;
  /**
   * Changelog checkpoints (state.backend.changelog.enabled, Flink's generic incremental
   * checkpoints, FLIP-158): `files` are the last materialized DB (all shared), and these the
   * shared segments of the state changes written to it since, in order, each named
   * `changelog-<sequence>`; a restore opens `files` and replays them. Every change's key starts
   * with its key group, so a restore at another parallelism replays what its range holds.
   */
  readonly changelog?: readonly LevelStateFile[];
}

/** Every file a LevelDB handle refers to: its DB files and its changelog segments. */
export function levelHandleFiles(handle: LevelKeyedStateHandle): readonly LevelStateFile[] {
  return handle.changelog === undefined ? handle.files : [...handle.files, ...handle.changelog];
}

export type KeyedStateHandle = HeapKeyedStateHandle | LevelKeyedStateHandle;

/**
 * Operator (non-keyed) state of one operator subtask: named lists, redistributed on rescale
 * round-robin (`split`), given whole to every subtask (`union`), or, for broadcast state
 * (every subtask holds the same copy), one old subtask's copy to each new subtask
 * (`broadcast`, Flink's OperatorStateHandle.Mode.BROADCAST). Source reader positions, sink
 * writer state and pending sink committables are operator state too.
 */
export interface OperatorStateHandle {
  readonly handle: StreamStateHandle;
  readonly states: Readonly<Record<string, { readonly mode: 'split' | 'union' | 'broadcast' }>>;
}

/**
 * In-flight data of an unaligned checkpoint, kept with the operator that heads (inputs) or
 * ends (outputs) the task's chain: the buffers a barrier overtook, replayed before any new
 * input on restore. The bytes are RecordBuffer payloads; `buffers` says where each starts.
 */
export interface ChannelStateHandle {
  readonly handle: StreamStateHandle;
  readonly channels: readonly ChannelStateEntry[];
}

export interface ChannelStateEntry {
  /** `input`: records received before this channel's barrier; `output`: records queued for a consumer the barrier overtook. */
  readonly direction: 'input' | 'output';
  /** input: the producing vertex; output: the consuming vertex. */
  readonly vertexId: string;
  /** input: the producing subtask; output: the consuming subtask. */
  readonly subtask: number;
  /**
   * The edge's position among the consuming vertex's inputs: which edge, where two connect the
   * same vertices (a forked chain into a join). Absent in checkpoints from before it was written.
   */
  readonly input?: number;
  /** [offset, length, recordCount] of each buffer inside the handle's bytes, in channel order. */
  readonly buffers: readonly (readonly [number, number, number])[];
}

export interface OperatorSubtaskState {
  readonly keyed?: readonly KeyedStateHandle[];
  readonly operator?: readonly OperatorStateHandle[];
  readonly channel?: ChannelStateHandle;
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
  /** A split source's enumerator state (base64 MessagePack of its snapshotState): its splits not yet assigned. */
  readonly coordinatorState?: string;
}

export const METADATA_FILE = '_metadata';

/** The directory below a job's checkpoint directory where incremental checkpoints keep shared files. */
export const SHARED_STATE_DIR = 'shared';

/** What a checkpoint ID is: a periodic checkpoint or a savepoint, and whether the job ends after it (Flink's CheckpointOptions). */
export interface CheckpointOptions {
  readonly type: 'checkpoint' | 'savepoint';
  /** Savepoints only: `suspend` ends the sources after it; `drain` ends their input first, then takes it. */
  readonly terminate?: 'suspend' | 'drain';
  /** URL of the directory for this snapshot's files and `_metadata`; undefined: `chk-<n>` below the job's checkpoint directory. */
  readonly targetLocation?: string;
  /**
   * Checkpoints only: true for an on-demand FULL checkpoint (Flink's CheckpointType.FULL): an
   * incremental backend uploads all its files rather than what its last confirmed checkpoint did not.
   */
  readonly full?: boolean;
}

export const CHECKPOINT_OPTIONS: CheckpointOptions = Object.freeze({ type: 'checkpoint' });

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
  /** With HA: it could not be registered in etcd (etcd unreachable), or this JobManager no longer leads. Not counted against tolerable failures: failing over cannot help. */
  HA_UNAVAILABLE: 'CHECKPOINT_HA_UNAVAILABLE',
} as const;
export type CheckpointFailureReason = (typeof CheckpointFailureReason)[keyof typeof CheckpointFailureReason];
