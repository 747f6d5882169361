import type { JobStatus } from '@weir/common';

/** What a submission is, as a new leader needs it to submit the job again the same way. */
export interface SubmittedJob {
  readonly jobId: string;
  readonly bundle: Buffer;
  readonly entryName: string;
  readonly args: readonly string[];
  /** `weir run -p`; 0 keeps the cluster's default. */
  readonly parallelism: number;
  /** `weir run -s`; '' to start empty. */
  readonly savepointPath: string;
  readonly allowNonRestoredState: boolean;
  /** `weir run -D`: the job's own configuration keys, over the cluster's. */
  readonly configuration: Readonly<Record<string, string>>;
  readonly submittedAtMs: number;
  /** Who submitted it (@weir/security's principalId, `token:alice`); '' when authentication was off. Kept so that its submitter still controls it under a new leader. */
  readonly owner: string;
}

/**
 * A job's checkpoints under HA: IDs come from a counter in etcd, so no later leader reuses
 * one, and a checkpoint counts only once its pointer is registered in etcd by the leader.
 */
export interface JobCheckpointHa {
  /** True when an ID is reserved for the next trigger. */
  available(): boolean;
  /** The next checkpoint ID, reserved in etcd ahead of time; undefined when none could be reserved (etcd unreachable): the trigger is skipped. */
  nextId(): number | undefined;
  /** False once this JobManager may no longer lead: no `_metadata` is written then. */
  mayWrite(): boolean;
  /**
   * Registers the completed checkpoint (its directory) and drops the pointers older than
   * `oldestRetained`, if this JobManager still leads. Rejects with LEADERSHIP_LOST (nothing
   * written) or HA_STORE_UNAVAILABLE (outcome unknown: keep the checkpoint's files).
   */
  register(checkpointId: number, path: string, timestamp: number, oldestRetained: number): Promise<void>;
}

/** The leader's side of HA for one leadership term; absent with high-availability.type: none. */
export interface LeaderHa {
  /** The fencing token every message to TaskManagers carries. */
  readonly epoch: number;
  /** Keeps the submission in storageDir and registers the job in etcd; the job starts only after. */
  jobSubmitted(job: SubmittedJob, jobName: string): Promise<void>;
  /** The job's checkpoint HA, with its first ID reserved above `restoredId`. */
  checkpoints(jobId: string, restoredId: number): Promise<JobCheckpointHa>;
  /** Records that the job ended (retrying while this JobManager leads); its checkpoints are cleaned up only after. */
  jobEnded(jobId: string, jobName: string, status: JobStatus, failureCause: string, submittedAtMs: number): Promise<void>;
  /** Records that a cancel was asked for, so a new leader does not resurrect the job. */
  cancelRequested(jobId: string, jobName: string, submittedAtMs: number): Promise<void>;
}
