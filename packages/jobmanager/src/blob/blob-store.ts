import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WeirError } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/**
 * Job bundles by SHA-256 (hex). Each is written to the blob directory, so the bytes outlive
 * the process, and kept in memory, which is where FetchBundle serves them from.
 */
export class BlobStore {
  readonly #bundles = new Map<string, Buffer>();

  private constructor(readonly directory: string) {}

  static async open(directory: string): Promise<BlobStore> {
    try {
      await mkdir(directory, { recursive: true });
    } catch (err) {
      throw new WeirError(
        JobManagerErrorCode.BLOB_STORE_FAILED,
        `cannot create the blob storage directory ${directory}: ${(err as Error).message}; set blob.storage.directory to a writable path`,
        { cause: err },
      );
    }
    return new BlobStore(directory);
  }

  /** Stores the bundle and returns its hash; storing the same bytes again is a no-op. */
  async put(bundle: Buffer): Promise<string> {
    // WebCrypto hashes on the thread pool: a bundle of tens of MiB does not stall the JobManager.
    const hash = Buffer.from(await crypto.subtle.digest('SHA-256', bundle as Uint8Array<ArrayBuffer>)).toString('hex');
    if (this.#bundles.has(hash)) return hash;
    const path = join(this.directory, `${hash}.js`);
    // Temp file + rename: a TaskManager sharing this directory as its cache never sees half a bundle.
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, bundle);
      await rename(temp, path);
    } catch (err) {
      throw new WeirError(
        JobManagerErrorCode.BLOB_STORE_FAILED,
        `cannot write the job bundle to ${path}: ${(err as Error).message}; blob.storage.directory must be writable`,
        { cause: err },
      );
    }
    this.#bundles.set(hash, bundle);
    return hash;
  }

  get(hash: string): Buffer {
    const bundle = this.#bundles.get(hash);
    if (bundle === undefined) {
      throw new WeirError(
        JobManagerErrorCode.BUNDLE_NOT_FOUND,
        `no job bundle with SHA-256 '${hash}'; only bundles of jobs submitted to this JobManager can be fetched`,
      );
    }
    return bundle;
  }
}
