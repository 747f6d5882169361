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
 *
 * Bundles are shared by content hash. Writing a bundle with its submission and removing the
 * bundles no submission refers to are serialized in this JobManager, so a removal never sees a
 * submission half written; and only the leader does either, checking its term before each
 * removal, so another leader's submission cannot meet this one's removal either (the term ends
 * before another leader can be elected: see LeaseKeeper).
 */
export class HaJobStore {
  /** The bundle operations in flight, one after another. */
  #bundles: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly etcd: Etcd3,
    private readonly keys: HaKeys,
    /** `<storageDir>/<cluster-id>`. */
    private readonly storage: Storage,
  ) {}

  /** Keeps the submission and bundle, then registers the job as RUNNING. */
  async add(term: LeadershipTerm, submission: JobSubmission, bundle: Uint8Array): Promise<void> {
    try {
      await this.#serialized(async () => {
        // Written even when it is there: the file is then surely this submission's, whatever removal came before.
        await this.storage.writeAtomic(bundlePath(submission.bundleHash), bundle);
        await this.storage.writeAtomic(submissionPath(submission.jobId), Buffer.from(JSON.stringify(submission)));
      });
    } catch (err) {
      throw new WeirError(HaErrorCode.HA_STORAGE_NOT_WRITABLE, `could not keep job ${submission.jobId} in high-availability.storageDir ${this.storage.url}: ${describeError(err)}`, { cause: err });
    }
    await this.put(term, { jobId: submission.jobId, jobName: submission.jobName, status: HaJobStatus.RUNNING, submittedAtMs: submission.submittedAtMs, endedAtMs: 0, failureCause: '', dirty: false });
  }

  /**
   * Removes what storageDir keeps of a job that ended (its record says so already): its
   * submission, then every bundle no submission refers to any more. Idempotent: a leader that
   * loses its term midway leaves it to the next, which does it again. LEADERSHIP_LOST once this
   * JobManager no longer leads; HA_STORAGE_NOT_WRITABLE when storageDir fails.
   */
  async removeJobData(term: LeadershipTerm, jobId: string): Promise<string[]> {
    try {
      return await this.#serialized(async () => {
        ensureLeading(term, jobId);
        await this.storage.deleteDirectory(`jobs/${jobId}`);
        const referenced = new Set<string>();
        for (const path of await this.storage.list('jobs')) {
          if (!path.endsWith('/submission.json')) continue;
          const submission = decodeSubmission(await this.storage.read(path));
          // A submission that cannot be read may still be some job's: keep every bundle then.
          if (typeof submission === 'string') return [];
          referenced.add(submission.bundleHash);
        }
        const removed: string[] = [];
        for (const path of await this.storage.list('bundles')) {
          const hash = /([0-9a-f]{64})\.js$/.exec(path)?.[1];
          if (hash === undefined || referenced.has(hash)) continue;
          ensureLeading(term, jobId);
          await this.storage.delete(bundlePath(hash));
          removed.push(hash);
        }
        return removed;
      });
    } catch (err) {
      if (err instanceof WeirError && err.code === HaErrorCode.LEADERSHIP_LOST) throw err;
      throw new WeirError(HaErrorCode.HA_STORAGE_NOT_WRITABLE, `could not remove job ${jobId} from high-availability.storageDir ${this.storage.url}: ${describeError(err)}`, { cause: err });
    }
  }

  #serialized<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#bundles.then(operation, operation);
    this.#bundles = result.catch(() => undefined);
    return result;
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
    const bundle = await this.#read(bundlePath(submission.bundleHash), jobId);
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

function bundlePath(hash: string): string {
  return `bundles/${hash}.js`;
}

function ensureLeading(term: LeadershipTerm, jobId: string): void {
  if (!term.valid) throw new WeirError(HaErrorCode.LEADERSHIP_LOST, `no longer the leader: leaving the clean-up of job ${jobId} in storageDir to the next`);
}

function submissionPath(jobId: string): string {
  return `jobs/${jobId}/submission.json`;
}
