/** Codes of the errors the JobManager throws or records as a job's failure cause. */
export const JobManagerErrorCode = {
  /** A job bundle was built against a @weir/api of another major version than the cluster's (0.x: another minor). */
  INCOMPATIBLE_API_VERSION: 'INCOMPATIBLE_API_VERSION',
  /** A request field is malformed: an entry name that is no file name, too many args, a parallelism above 32768, an overlong path or bundle hash (see service/request-checks.ts). */
  INVALID_REQUEST: 'INVALID_REQUEST',
  /** A client named a job ID the JobManager does not know (GetJob, CancelJob, WatchJob, ListCheckpoints). */
  JOB_NOT_FOUND: 'JOB_NOT_FOUND',
  /** FetchBundle asked for a SHA-256 no submitted job had. */
  BUNDLE_NOT_FOUND: 'BUNDLE_NOT_FOUND',
  /** The blob storage directory could not be created, or a bundle could not be written to it. */
  BLOB_STORE_FAILED: 'BLOB_STORE_FAILED',
  /** A job's code on the JobManager did not answer in time: its main did not return within jobmanager.job-main.timeout; its worker process was ended. */
  USER_CODE_TIMEOUT: 'USER_CODE_TIMEOUT',
  /** A job's worker process on the JobManager ended (out of memory, an error thrown outside any call, process.exit) or was closed; the submission fails, a running job fails over. */
  USER_CODE_FAILED: 'USER_CODE_FAILED',
  /** A job waited `slot.request.timeout` for enough free slots; its failure cause. */
  NOT_ENOUGH_SLOTS: 'NOT_ENOUGH_SLOTS',
  /** A TaskManager's connection broke or its heartbeats stopped; the failure cause of its jobs, and what its Connect call ends with. */
  TASK_MANAGER_LOST: 'TASK_MANAGER_LOST',
  /** A subtask reported FAILED without a code of its own; the failure cause of its job. */
  TASK_FAILED: 'TASK_FAILED',
  /** A split source's enumerator threw without a code of its own (discovery, assignment, snapshot); the failure cause of its job. */
  SOURCE_ENUMERATOR_FAILED: 'SOURCE_ENUMERATOR_FAILED',
  /** A TaskManager's first message on Connect was not `register`; the call ends with it. */
  REGISTRATION_EXPECTED: 'REGISTRATION_EXPECTED',
  /** A `register` message lacked an ID or data address, or offered no slots; the call ends with it. */
  INVALID_REGISTRATION: 'INVALID_REGISTRATION',
  /**
   * A `register` message named the ID of a TaskManager that is registered and was heard from
   * within two heartbeat intervals; the live one keeps its registration, the call ends with it.
   */
  TASK_MANAGER_ID_IN_USE: 'TASK_MANAGER_ID_IN_USE',
  /**
   * SubmitJob: the job's checkpointing, state backend or restart strategy settings (or the
   * cluster keys they fall back to) cannot work, such as a filesystem backend without a directory.
   */
  INVALID_JOB_SETTINGS: 'INVALID_JOB_SETTINGS',
  /**
   * SubmitJob: the job's sinks claim something a job that has not ended holds (the same
   * exactly-once KafkaSink transactional id prefix on the same cluster, say); see Sink.exclusiveResources.
   */
  RESOURCE_IN_USE: 'RESOURCE_IN_USE',
  /** More consecutive checkpoints failed than execution.checkpointing.tolerable-failed-checkpoints allows; the cause of the failover. */
  CHECKPOINT_FAILURE_THRESHOLD: 'CHECKPOINT_FAILURE_THRESHOLD',
  /** Checkpoints were completed but none of the retained ones can be read back; the job fails instead of restarting without its state. */
  NO_USABLE_CHECKPOINT: 'NO_USABLE_CHECKPOINT',
  /**
   * The checkpoint or savepoint to restore cannot fit the job as it is now: an operator with
   * keyed state has another max parallelism, or in-flight data of an unaligned checkpoint
   * would have to be redistributed to a new parallelism.
   */
  RESTORE_MISMATCH: 'RESTORE_MISMATCH',
  // Restoring from savepoints and retained checkpoints (weir run -s), and shared state.
  /** SubmitJob: the savepoint path does not exist or holds no `_metadata`. */
  SAVEPOINT_NOT_FOUND: 'SAVEPOINT_NOT_FOUND',
  /** SubmitJob: the savepoint's `_metadata` is not JSON or not checkpoint metadata, or a state file it references is missing or has another size than recorded; also operator state to redistribute that does not decode. */
  INVALID_SAVEPOINT: 'INVALID_SAVEPOINT',
  /** The checkpoint or savepoint holds state of operators the job no longer has, and allowNonRestoredState (-n) was not given. */
  UNMAPPED_STATE: 'UNMAPPED_STATE',
  // Taking and disposing savepoints (weir savepoint, stop, cancel -s, savepoint -d).
  /** TriggerSavepoint named no target directory and state.savepoints.dir is not set. */
  SAVEPOINT_DIR_MISSING: 'SAVEPOINT_DIR_MISSING',
  /** TriggerSavepoint: the savepoint directory could not be created or written (a probe write failed); nothing was triggered. */
  SAVEPOINT_DIR_NOT_WRITABLE: 'SAVEPOINT_DIR_NOT_WRITABLE',
  /** TriggerSavepoint for a job without checkpointing: it has no coordinator and its tasks cannot snapshot. */
  SAVEPOINT_NOT_SUPPORTED: 'SAVEPOINT_NOT_SUPPORTED',
  /** TriggerCheckpoint (weir checkpoint, POST /jobs/:jobid/checkpoints) for a job without checkpointing. */
  CHECKPOINTING_NOT_ENABLED: 'CHECKPOINTING_NOT_ENABLED',
  /** TriggerCheckpoint: the checkpoint type is not FULL, INCREMENTAL or CONFIGURED. */
  INVALID_CHECKPOINT_REQUEST: 'INVALID_CHECKPOINT_REQUEST',
  /** A checkpoint triggered on demand could not be triggered now or did not complete (declined, expired, subsumed, the job failed over or ended). */
  CHECKPOINT_FAILED: 'CHECKPOINT_FAILED',
  /** TriggerSavepoint for a job that is not RUNNING (or is already stopping after a stop-with-savepoint), or whose tasks are not all running yet. */
  JOB_NOT_RUNNING: 'JOB_NOT_RUNNING',
  /** TriggerSavepoint while another savepoint of the same job is still being taken. */
  SAVEPOINT_IN_PROGRESS: 'SAVEPOINT_IN_PROGRESS',
  /** TriggerSavepoint: terminate is not '', CANCEL or STOP, or drain was asked without STOP. */
  INVALID_SAVEPOINT_REQUEST: 'INVALID_SAVEPOINT_REQUEST',
  /** A triggered savepoint did not complete (declined, expired, `_metadata` not written, the job failed over or ended); the answer of TriggerSavepoint. */
  SAVEPOINT_FAILED: 'SAVEPOINT_FAILED',
  /** DisposeSavepoint: the path holds no `_metadata`, or one that is not a savepoint's; nothing was deleted. */
  NOT_A_SAVEPOINT: 'NOT_A_SAVEPOINT',
  /**
   * A savepoint target, `weir run -s` path or `weir savepoint -d` path is outside
   * state.savepoints.dir, state.checkpoints.dir and state.savepoints.allowed-dirs (or has `..`
   * segments); nothing was read, written or deleted.
   */
  PATH_NOT_ALLOWED: 'PATH_NOT_ALLOWED',
  /** A client submitted jobs or triggered savepoints more often than jobmanager.client.max-requests-per-minute allows; nothing was done. */
  RATE_LIMITED: 'RATE_LIMITED',
} as const;
export type JobManagerErrorCode = (typeof JobManagerErrorCode)[keyof typeof JobManagerErrorCode];
