/** Codes of the WeirErrors that @weir/runtime throws or reports. */
export const RuntimeErrorCode = {
  /** A user function (map, process, a source reader, a sink writer, open/close...) threw; the task FAILS with it. */
  USER_FUNCTION_FAILED: 'USER_FUNCTION_FAILED',
  /** The deployment does not match the rebuilt JobGraph: unknown vertex, subtask out of range, wrong inputs or parallelism. */
  DEPLOYMENT_MISMATCH: 'DEPLOYMENT_MISMATCH',
  /** The graph asks for something the runtime cannot run (a forward edge between different parallelisms, a missing key selector). */
  INVALID_GRAPH: 'INVALID_GRAPH',
  /** User code called inc() or dec() on a built-in operator counter (numRecordsIn, numRecordsOut), which the runtime keeps. */
  METRIC_READ_ONLY: 'METRIC_READ_ONLY',
  /** Keyed state was requested by an operator that does not run on a KeyedStream. */
  STATE_NOT_KEYED: 'STATE_NOT_KEYED',
  /** Keyed state was read or written outside of processing a record, so there is no current key. */
  STATE_NO_CURRENT_KEY: 'STATE_NO_CURRENT_KEY',
  /** Two state descriptors of one operator share a name but not a kind. */
  STATE_DESCRIPTOR_MISMATCH: 'STATE_DESCRIPTOR_MISMATCH',
  /**
   * Broadcast state used wrongly: getBroadcastState with a descriptor that broadcast(...) did
   * not register, a broadcast state's name used for keyed state (getState, getMapState...),
   * or a write to it from the non-broadcast side (read-only there, as in Flink).
   */
  BROADCAST_STATE_MISUSED: 'BROADCAST_STATE_MISUSED',
  /** applyToKeyedState on a state backend that cannot visit its keys synchronously (LevelDB). */
  KEYED_STATE_ITERATION_UNSUPPORTED: 'KEYED_STATE_ITERATION_UNSUPPORTED',
  /** A user function asked for operator list state whose name starts with '$', which the runtime keeps for itself. */
  STATE_NAME_RESERVED: 'STATE_NAME_RESERVED',
  /**
   * Restoring from a checkpoint failed: a state handle could not be read (file missing,
   * storage down, no storage for a file handle) or its bytes could not be decoded. The task FAILS.
   */
  CHECKPOINT_RESTORE_FAILED: 'CHECKPOINT_RESTORE_FAILED',
  /**
   * The restored checkpoint's state is corrupt: a file's SHA-256 or size is not the one
   * written, or its bytes do not decode or open. Restoring it again would fail the same way:
   * the JobManager restores the previous retained checkpoint instead, and fails the job when
   * none is left (or when it was the savepoint the job was started from). The task FAILS.
   */
  CHECKPOINT_CORRUPT: 'CHECKPOINT_CORRUPT',
  /** The local state dir (state.backend.rocksdb.localdir) cannot hold the task's LevelDB: not writable, not a directory, disk full. The task FAILS. */
  LOCAL_STATE_DIR_UNUSABLE: 'LOCAL_STATE_DIR_UNUSABLE',
  /** LevelDB itself failed while the task ran (a write batch, a read, a memtable flush, linking the DB's files for a checkpoint). The task FAILS or the checkpoint is declined. */
  LEVEL_STATE_FAILED: 'LEVEL_STATE_FAILED',
  /** A record's key belongs to a key group that this subtask does not own (records were routed wrongly). */
  KEY_GROUP_OUT_OF_RANGE: 'KEY_GROUP_OUT_OF_RANGE',
  /** No producer registered the subscribed subpartition within the subscribe timeout. */
  PARTITION_NOT_FOUND: 'PARTITION_NOT_FOUND',
  /**
   * The producer was cancelled before its end of partition. A consumer that sees it cancels
   * itself instead of failing (Flink's CancelTaskException): cancellation spreading through
   * the graph is not a failure of the job.
   */
  PRODUCER_CANCELED: 'PRODUCER_CANCELED',
  /** The producer's partition was released (it failed, or its attempt ended) before the end of partition. */
  PARTITION_RELEASED: 'PARTITION_RELEASED',
  /** A partition with the same (job, attempt, producer, consumer vertex) is already registered. */
  DUPLICATE_PARTITION: 'DUPLICATE_PARTITION',
  /** A subpartition already has a live subscriber, or the consumer subtask is out of range. */
  INVALID_SUBSCRIPTION: 'INVALID_SUBSCRIPTION',
  /** An input channel failed for a reason without a code of its own (a broken connection). */
  INPUT_CHANNEL_FAILED: 'INPUT_CHANNEL_FAILED',
  /** A process function set a timer on a stream that is not keyed (timers belong to keys). */
  TIMERS_NOT_KEYED: 'TIMERS_NOT_KEYED',
  /** A merging window assigner merged windows into one that ends before the current watermark (or processing time). */
  INVALID_WINDOW_MERGE: 'INVALID_WINDOW_MERGE',
  /** A timestamp assigner returned something that is not a number of milliseconds. */
  INVALID_TIMESTAMP: 'INVALID_TIMESTAMP',
  /** A timer was registered with a time that is not a number of milliseconds. */
  INVALID_TIMER: 'INVALID_TIMER',
  /**
   * A record holds a value that would not reach the next task unchanged (a class instance, a
   * function...) or does not match its stream's declared type. The emitting operator FAILS,
   * the message naming the field and what to do; no restart can help.
   */
  RECORD_REFUSED: 'RECORD_REFUSED',
  /**
   * A buffer from an input channel could not be decoded (corrupt bytes, or written for another
   * record type). The task FAILS, the message naming the operator and the channel; no restart can help.
   */
  RECORD_DECODE_FAILED: 'RECORD_DECODE_FAILED',
} as const;
export type RuntimeErrorCode = (typeof RuntimeErrorCode)[keyof typeof RuntimeErrorCode];
