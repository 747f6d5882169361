import type { ListState, ListStateDescriptor, MapState, MapStateDescriptor, ReducingState, ReducingStateDescriptor, StateDescriptor, ValueState, ValueStateDescriptor } from '@weir/api';
import type { CheckpointOptions, KeyGroupRange, StateMetaInfo } from '@weir/common';
import type { KeyContext } from './key-context.ts';
import type { LevelBaseline } from './level/baseline.ts';
import type { SnapshotFile } from './level/snapshot-files.ts';
import type { ChangelogCheckpoint } from './level/changelog/state-changelog.ts';
import type { KeyGroupEntries } from './state-table.ts';

/**
 * The keyed state of one operator subtask, whatever keeps it: JS Maps on the heap, or a
 * LevelDB database in the TaskManager's local state dir. Functions get their states here;
 * the task opens it before the restore, tells it which checkpoints completed, and disposes
 * of it when it ends (state-lifecycle.ts).
 */
export interface KeyedStateBackend {
  readonly kind: 'heap' | 'level';
  readonly keys: KeyContext;
  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
  /**
   * State of the current key and the key context's current `namespace` (a window), of the
   * descriptor's kind and type, stored as `name` (the window operator prefixes the names of
   * trigger and window state, so they never meet the function's own). The same object for the same name.
   */
  getNamespacedState(descriptor: StateDescriptor<unknown>, name: string): unknown;
  /** Keyed state of the runtime's own (reduce's accumulator, timers), under a name users cannot pick by accident. */
  getInternalValueState<T>(name: string): ValueState<T>;
  /** Every value of the runtime's own value state `name`, of every key of the subtask (the timer service rebuilds its queues from them on restore). */
  internalValues(name: string): Promise<unknown[]>;
  open(): Promise<void>;
  /**
   * The synchronous part of a checkpoint: a view of the state that later writes do not
   * change. Records do not flow while it runs.
   */
  capture(checkpointId: number, options: CheckpointOptions): Promise<CapturedKeyedState>;
  notifyCheckpointComplete(checkpointId: number): void;
  notifyCheckpointAborted(checkpointId: number): void;
  dispose(): Promise<void>;
}

/** One state of a keyed snapshot: its key groups' entries as they were at the synchronous part. */
export interface KeyedStateView {
  readonly name: string;
  readonly meta: StateMetaInfo;
  readonly groups: KeyGroupEntries;
}

/** Heap state at the synchronous part: copy-on-write views, serialized in the canonical format. */
export interface KeyedSnapshot {
  readonly kind: 'heap';
  readonly keyGroupRange: KeyGroupRange;
  /** By state name, sorted. */
  readonly states: readonly KeyedStateView[];
  /** Processing time of the synchronous part: state TTL's cleanup in full snapshots leaves out what expired by then. */
  readonly capturedAt: number;
}

/**
 * A LevelDB checkpoint: the DB's files, hard-linked into a directory of their own once the
 * checkpoint's write batch is in the DB. That happens after the synchronous part, while
 * records flow; the asynchronous part awaits `files`.
 */
export interface LevelFilesSnapshot {
  readonly kind: 'level-files';
  readonly keyGroupRange: KeyGroupRange;
  readonly states: Readonly<Record<string, StateMetaInfo>>;
  /** The local directory the files are linked into; removed once they are uploaded. */
  readonly directory: string;
  /** Rejects when the batch could not be written or the files not be linked. */
  readonly files: Promise<readonly SnapshotFile[]>;
  /** Incremental mode: what a confirmed checkpoint already uploaded to `shared/`. */
  readonly confirmed: LevelBaseline | undefined;
  /** The checkpoint `confirmed` came from (0: the restored one's, or none), which the handle names for the JobManager. */
  readonly baseCheckpointId: number;
  /** Called with the shared files of the checkpoint once they are uploaded, so a later confirmation can make them the baseline. */
  readonly uploaded: (shared: LevelBaseline) => void;
  /** A changelog materialization: every file goes to `shared/` (CURRENT too), since later checkpoints refer to all of them. */
  readonly everyFileShared?: boolean;
}

/**
 * A changelog checkpoint (state.backend.changelog.enabled): the materialized base, already in
 * `shared/`, and the changelog segments written since, the ones no confirmed checkpoint
 * uploaded still with their bytes.
 */
export interface LevelChangelogSnapshot extends ChangelogCheckpoint {
  readonly kind: 'level-changelog';
  readonly keyGroupRange: KeyGroupRange;
  readonly states: Readonly<Record<string, StateMetaInfo>>;
}

/** A LevelDB savepoint at the synchronous part: a cursor (an iterator with its implicit DB snapshot) over the subtask's keys, written in the canonical format. */
export interface LevelCanonicalSnapshot {
  readonly kind: 'level-canonical';
  readonly keyGroupRange: KeyGroupRange;
  readonly states: Readonly<Record<string, StateMetaInfo>>;
  readonly cursor: EntryCursor;
  /** As KeyedSnapshot.capturedAt. */
  readonly capturedAt: number;
}

/** Entries of a DB in key order, a batch at a time. */
export interface EntryCursor {
  /** Up to `size` entries; none at the end. */
  nextv(size: number): Promise<[Buffer, Buffer][]>;
  close(): Promise<void>;
}

export type CapturedKeyedState = KeyedSnapshot | LevelFilesSnapshot | LevelChangelogSnapshot | LevelCanonicalSnapshot;
