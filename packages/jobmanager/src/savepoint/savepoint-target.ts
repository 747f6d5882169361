import { randomBytes } from 'node:crypto';
import { METADATA_FILE, WeirError, describeError } from '@weir/common';
import { displayLocation, type Storage, type StorageOpener } from '@weir/storage';
import { JobManagerErrorCode } from '../errors.ts';

/** A probe file written and deleted before triggering, so a directory nobody can write fails before any task is involved. */
const PROBE_FILE = '.weir-write-probe';

/** The directory savepoints go below: the request's, else state.savepoints.dir, else SAVEPOINT_DIR_MISSING naming both. */
export function resolveSavepointBase(requested: string, configured: string): string {
  if (requested.trim() !== '') return requested;
  if (configured.trim() !== '') return configured;
  throw new WeirError(
    JobManagerErrorCode.SAVEPOINT_DIR_MISSING,
    'no savepoint directory: give one with the command (`weir savepoint <jobId> <dir>`, `weir stop --savepointPath <dir>`, `weir cancel -s <dir>`) or set state.savepoints.dir in the configuration',
  );
}

/** `savepoint-<first 6 of the job ID>-<12 random hex>`: unique per savepoint, recognisable per job. */
export function savepointDirName(jobId: string, randomHex: () => string = () => randomBytes(6).toString('hex')): string {
  return `savepoint-${jobId.slice(0, 6)}-${randomHex()}`;
}

/**
 * One savepoint's own directory below the savepoint base: where tasks write its files and the
 * JobManager its `_metadata`. Whoever created it closes it, and discards it if the savepoint failed.
 */
export class SavepointTarget {
  readonly #base: Storage;
  readonly #dir: Storage;

  private constructor(
    base: Storage,
    readonly name: string,
  ) {
    this.#base = base;
    this.#dir = base.child(name);
  }

  /**
   * Opens `<base>/<name>` and checks it can be written by writing and deleting a probe file;
   * SAVEPOINT_DIR_NOT_WRITABLE (nothing else touched) when that fails.
   */
  static async create(baseUrl: string, name: string, open: StorageOpener): Promise<SavepointTarget> {
    const target = new SavepointTarget(open(baseUrl), name);
    try {
      await target.#dir.write(PROBE_FILE, new Uint8Array());
      await target.#dir.delete(PROBE_FILE);
    } catch (err) {
      target.close();
      throw new WeirError(
        JobManagerErrorCode.SAVEPOINT_DIR_NOT_WRITABLE,
        `cannot write the savepoint directory ${target.location()}: ${describeError(err)}; the savepoint directory must be writable by the JobManager and the TaskManagers`,
        { cause: err },
      );
    }
    return target;
  }

  /** URL of the savepoint directory: the target location tasks write to, and the savepoint's path. */
  get url(): string {
    return this.#dir.url;
  }

  /** The directory as people know it: a local path for `file://` URLs. */
  location(): string {
    return displayLocation(this.url);
  }

  metadataLocation(): string {
    return `${this.location()}/${METADATA_FILE}`;
  }

  /** Writes `_metadata` atomically, the last file of the savepoint. */
  writeMetadata(data: Uint8Array): Promise<void> {
    return this.#dir.writeAtomic(METADATA_FILE, data);
  }

  /** Deletes the savepoint directory: what tasks of a failed savepoint wrote. */
  discard(): Promise<void> {
    return this.#base.deleteDirectory(this.name);
  }

  close(): void {
    this.#base.close();
  }
}
