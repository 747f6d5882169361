import type { Etcd3 } from 'etcd3';
import { WeirError, describeError } from '@weir/common';
import type { Storage } from '@weir/storage';
import type { LeadershipTerm } from '../election/leadership-term.ts';
import { unavailable } from '../etcd.ts';
import { HaErrorCode } from '../errors.ts';
import type { HaKeys } from '../keys.ts';
import { decodeJobRecord, decodeSubmission, HaJobStatus, type JobRecord, type JobSubmission } from './job-records.ts';

/**
 * The cluster's jobs, as Flink's JobGraphStore and JobResultStore together: each submission
 * and its bundle in storageDir (`jobs/<jobId>/submission.json`, `bundles/<sha256>.js`), each
 * job's record in etcd (`jobs/<jobId>`), written by the leader only. Files go first, so a
 * record never points at nothing.
 */
export class HaJobStore {
  constructor(
    private readonly etcd: Etcd3,
    private readonly keys: HaKeys,
    /** `<storageDir>/<cluster-id>`. */
    private readonly storage: Storage,
  ) {}

  /** Keeps the submission and bundle, then registers the job as RUNNING. */
  async add(term: LeadershipTerm, submission: JobSubmission, bundle: Uint8Array): Promise<void> {
    const bundlePath = `bundles/${submission.bundleHash}.js`;
    try {
      if (!(await this.storage.exists(bundlePath))) await this.storage.writeAtomic(bundlePath, bundle);
      await this.storage.writeAtomic(submissionPath(submission.jobId), Buffer.from(JSON.stringify(submission)));
    } catch (err) {
      throw new WeirError(HaErrorCode.HA_STORAGE_NOT_WRITABLE, `could not keep job ${submission.jobId} in high-availability.storageDir ${this.storage.url}: ${describeError(err)}`, { cause: err });
    }
    await this.put(term, { jobId: submission.jobId, jobName: submission.jobName, status: HaJobStatus.RUNNING, submittedAtMs: submission.submittedAtMs, endedAtMs: 0, failureCause: '' });
  }

  /** Writes the record if this JobManager still leads. */
  put(term: LeadershipTerm, record: JobRecord): Promise<void> {
    return term.commit(`record job ${record.jobId} as ${record.status} in etcd`, [this.etcd.put(this.keys.job(record.jobId)).value(JSON.stringify(record))]);
  }

  /** Every job's record, in submission order; records that do not parse are skipped and returned as problems. */
  async list(): Promise<{ records: JobRecord[]; problems: string[] }> {
    let kvs: Record<string, string>;
    try {
      kvs = await this.etcd.getAll().prefix(this.keys.jobs).strings();
    } catch (err) {
      throw unavailable('read the job records', err);
    }
    const records: JobRecord[] = [];
    const problems: string[] = [];
    for (const [key, value] of Object.entries(kvs)) {
      const record = decodeJobRecord(value);
      if (typeof record === 'string') problems.push(`${key}: ${record}`);
      else records.push(record);
    }
    records.sort((a, b) => a.submittedAtMs - b.submittedAtMs);
    return { records, problems };
  }

  /** The job's submission and bundle from storageDir; HA_RECORD_CORRUPT when either is missing or unreadable. */
  async submission(jobId: string): Promise<{ submission: JobSubmission; bundle: Uint8Array }> {
    const path = submissionPath(jobId);
    const submission = decodeSubmission(await this.#read(path, jobId));
    if (typeof submission === 'string') throw new WeirError(HaErrorCode.HA_RECORD_CORRUPT, `${this.storage.url}/${path} of job ${jobId} is corrupt: ${submission}`);
    const bundle = await this.#read(`bundles/${submission.bundleHash}.js`, jobId);
    return { submission, bundle };
  }

  async #read(path: string, jobId: string): Promise<Uint8Array> {
    try {
      return await this.storage.read(path);
    } catch (err) {
      throw new WeirError(HaErrorCode.HA_RECORD_CORRUPT, `cannot read ${this.storage.url}/${path} of job ${jobId}: ${describeError(err)}`, { cause: err });
    }
  }
}

function submissionPath(jobId: string): string {
  return `jobs/${jobId}/submission.json`;
}
