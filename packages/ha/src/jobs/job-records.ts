/** A job's status as etcd keeps it: RUNNING until it ends, so a new leader knows which jobs to recover. */
export const HaJobStatus = {
  RUNNING: 'RUNNING',
  /** A cancel was asked for: a new leader cancels instead of recovering. */
  CANCELLING: 'CANCELLING',
  FINISHED: 'FINISHED',
  CANCELED: 'CANCELED',
  FAILED: 'FAILED',
} as const;
export type HaJobStatus = (typeof HaJobStatus)[keyof typeof HaJobStatus];

/** What a submission was, kept in storageDir so a new leader submits the job again the same way. */
export interface JobSubmission {
  readonly jobId: string;
  readonly jobName: string;
  readonly entryName: string;
  readonly args: readonly string[];
  /** `weir run -p`; 0 keeps the cluster's default. */
  readonly parallelism: number;
  /** `weir run -s`; '' when the job started empty. */
  readonly savepointPath: string;
  readonly allowNonRestoredState: boolean;
  /** `weir run -D`: the job's own configuration keys, over the cluster's. */
  readonly configuration: Readonly<Record<string, string>>;
  /** SHA-256 (hex) of the bundle, stored beside it as `bundles/<hash>.js`. */
  readonly bundleHash: string;
  readonly submittedAtMs: number;
  /** Who submitted the job (`token:alice`, `jwt:alice`), so that a submitter controls its own job under every leader; '' when not known. */
  readonly owner: string;
}

/** A job's record in etcd (`jobs/<jobId>`). */
export interface JobRecord {
  readonly jobId: string;
  readonly jobName: string;
  readonly status: HaJobStatus;
  readonly submittedAtMs: number;
  /** 0 while the job runs. */
  readonly endedAtMs: number;
  /** Set when the job FAILED. */
  readonly failureCause: string;
  /**
   * Flink's JobResultStore entry states: true from when the job is recorded globally terminal
   * until its HA data (submission, checkpoint pointers, unreferenced bundles) is removed, then
   * false ("clean"). A leader cleans up every dirty job it finds.
   */
  readonly dirty: boolean;
}

/** FINISHED, CANCELED, FAILED: the job will not run again. */
export function isGloballyTerminal(status: HaJobStatus): boolean {
  return status === HaJobStatus.FINISHED || status === HaJobStatus.CANCELED || status === HaJobStatus.FAILED;
}

/** The record's JSON, or a string saying what is wrong with it. */
export function decodeJobRecord(value: string): JobRecord | string {
  let parsed: Partial<JobRecord>;
  try {
    parsed = JSON.parse(value) as Partial<JobRecord>;
  } catch (err) {
    return `it is not JSON (${(err as Error).message})`;
  }
  if (typeof parsed.jobId !== 'string' || typeof parsed.status !== 'string' || !Object.values<string>(HaJobStatus).includes(parsed.status)) {
    return 'it lacks a job ID or a known status';
  }
  return {
    jobId: parsed.jobId,
    jobName: parsed.jobName ?? '',
    status: parsed.status,
    submittedAtMs: parsed.submittedAtMs ?? 0,
    endedAtMs: parsed.endedAtMs ?? 0,
    failureCause: parsed.failureCause ?? '',
    // A terminal record an older Weir wrote has no flag: its HA data was never removed.
    dirty: typeof parsed.dirty === 'boolean' ? parsed.dirty : isGloballyTerminal(parsed.status),
  };
}

export function decodeSubmission(bytes: Uint8Array): JobSubmission | string {
  let parsed: Partial<JobSubmission>;
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<JobSubmission>;
  } catch (err) {
    return `it is not JSON (${(err as Error).message})`;
  }
  if (typeof parsed.jobId !== 'string' || typeof parsed.bundleHash !== 'string' || typeof parsed.entryName !== 'string' || !Array.isArray(parsed.args)) {
    return 'it lacks the job ID, bundle hash, entry name or args';
  }
  return {
    jobId: parsed.jobId,
    jobName: parsed.jobName ?? '',
    entryName: parsed.entryName,
    args: parsed.args,
    parallelism: parsed.parallelism ?? 0,
    savepointPath: parsed.savepointPath ?? '',
    allowNonRestoredState: parsed.allowNonRestoredState ?? false,
    // A submission an older Weir wrote has none.
    configuration: parsed.configuration ?? {},
    bundleHash: parsed.bundleHash,
    submittedAtMs: parsed.submittedAtMs ?? 0,
    // A submission an older Weir wrote names no owner: only operators and admins control its job.
    owner: typeof parsed.owner === 'string' ? parsed.owner : '',
  };
}
