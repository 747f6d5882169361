import { createHash } from 'node:crypto';
import { describeError, WeirError } from '@weir/common';
import { fromServiceError } from '@weir/rpc';
import type { JobManagerTarget } from '../control/jobmanager-targets.ts';
import { TaskManagerErrorCode } from '../errors.ts';

/** Fetches the bytes of the bundle with this SHA-256 (hex). */
export type BundleFetcher = (hash: string) => Promise<Uint8Array>;

export function fetchBundleFrom(target: () => JobManagerTarget | undefined): BundleFetcher {
  return (hash) =>
    new Promise((resolve, reject) => {
      const jobManager = target();
      if (jobManager === undefined) {
        reject(new WeirError(TaskManagerErrorCode.JOBMANAGER_UNREACHABLE, `cannot fetch job bundle ${hash}: etcd names no JobManager leader right now`));
        return;
      }
      jobManager.client.FetchBundle({ bundleHash: hash }, (error, response) => {
        if (error) reject(fromServiceError(error, jobManager.address));
        else resolve(response!.bundle);
      });
    });
}

/**
 * Job bundles by hash, fetched once: every subtask of a job (and every restart of it) uses
 * the same bundle. A failed fetch is not cached, so the next deploy tries again.
 */
export class BundleCache {
  readonly #fetch: BundleFetcher;
  readonly #bundles = new Map<string, Promise<string>>();

  constructor(fetch: BundleFetcher) {
    this.#fetch = fetch;
  }

  get(hash: string): Promise<string> {
    let bundle = this.#bundles.get(hash);
    if (bundle === undefined) {
      bundle = this.#fetchVerified(hash);
      this.#bundles.set(hash, bundle);
      bundle.catch(() => this.#bundles.delete(hash));
    }
    return bundle;
  }

  async #fetchVerified(hash: string): Promise<string> {
    let bytes: Uint8Array;
    try {
      bytes = await this.#fetch(hash);
    } catch (error) {
      throw new WeirError(
        TaskManagerErrorCode.BUNDLE_FETCH_FAILED,
        `cannot fetch job bundle ${hash} from the JobManager: ${describeError(error)}`,
        { cause: error },
      );
    }
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== hash.toLowerCase()) {
      throw new WeirError(
        TaskManagerErrorCode.BUNDLE_FETCH_FAILED,
        `the JobManager sent a job bundle with SHA-256 ${actual} for ${hash}; the bytes must hash to the requested value`,
      );
    }
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }
}
