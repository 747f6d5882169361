/** Codes of the errors the JobManager throws or records as a job's failure cause. */
export const JobManagerErrorCode = {
  /** A client named a job ID the JobManager does not know (GetJob, CancelJob, WatchJob, ListCheckpoints). */
  JOB_NOT_FOUND: 'JOB_NOT_FOUND',
  /** FetchBundle asked for a SHA-256 no submitted job had. */
  BUNDLE_NOT_FOUND: 'BUNDLE_NOT_FOUND',
  /** The blob storage directory could not be created, or a bundle could not be written to it. */
  BLOB_STORE_FAILED: 'BLOB_STORE_FAILED',
  /** A job waited `slot.request.timeout` for enough free slots; its failure cause. */
  NOT_ENOUGH_SLOTS: 'NOT_ENOUGH_SLOTS',
  /** A TaskManager's connection broke or its heartbeats stopped; the failure cause of its jobs, and what its Connect call ends with. */
  TASK_MANAGER_LOST: 'TASK_MANAGER_LOST',
  /** A subtask reported FAILED without a code of its own; the failure cause of its job. */
  TASK_FAILED: 'TASK_FAILED',
  /** A TaskManager's first message on Connect was not `register`; the call ends with it. */
  REGISTRATION_EXPECTED: 'REGISTRATION_EXPECTED',
  /** A `register` message lacked an ID or data address, or offered no slots; the call ends with it. */
  INVALID_REGISTRATION: 'INVALID_REGISTRATION',
  /**
   * SubmitJob: the job's checkpointing, state backend or restart strategy settings (or the
   * cluster keys they fall back to) cannot work, such as a filesystem backend without a directory.
   */
  INVALID_JOB_SETTINGS: 'INVALID_JOB_SETTINGS',
  /** More consecutive checkpoints failed than execution.checkpointing.tolerable-failed-checkpoints allows; the cause of the failover. */
  CHECKPOINT_FAILURE_THRESHOLD: 'CHECKPOINT_FAILURE_THRESHOLD',
  /** Checkpoints were completed but none of the retained ones can be read back; the job fails instead of restarting without its state. */
  NO_USABLE_CHECKPOINT: 'NO_USABLE_CHECKPOINT',
  /** The checkpoint to restore was taken at another parallelism or max parallelism than the job has now (rescaling comes later). */
  RESTORE_MISMATCH: 'RESTORE_MISMATCH',
} as const;
export type JobManagerErrorCode = (typeof JobManagerErrorCode)[keyof typeof JobManagerErrorCode];
