import { METADATA_FILE, SHARED_STATE_DIR, checkpointDirName, describeError, type Logger } from '@weir/common';
import { displayLocation, type Storage, type StoredFile } from '@weir/storage';

/** The first segment of a path below the job's directory that is a checkpoint's directory. */
const CHECKPOINT_DIRECTORY = /^chk-(\d+)\//;

/**
 * A job's checkpoint directory, `<checkpoint dir>/<jobId>`, as the JobManager uses it: writes
 * and reads `chk-<n>/_metadata`, deletes checkpoints. Deleting is best effort: a failure is
 * logged and the job goes on, since leftover files cost space but never correctness.
 */
export class JobCheckpointStorage {
  readonly #job: Storage;
  /** Deletions still running, which closing waits for. */
  readonly #deleting = new Set<Promise<void>>();

  constructor(
    private readonly root: Storage,
    private readonly jobId: string,
    private readonly logger: Logger,
  ) {
    this.#job = root.child(jobId);
  }

  /** URL of the job's checkpoint directory: what tasks write below. */
  get url(): string {
    return this.#job.url;
  }

  /** URL of checkpoint `checkpointId`'s directory: what relative handle paths resolve against. */
  checkpointUrl(checkpointId: number): string {
    return this.#job.child(checkpointDirName(checkpointId)).url;
  }

  /** The job directory as people know it: a local path for `file://` URLs. */
  location(): string {
    return displayLocation(this.url);
  }

  /** The path of checkpoint `checkpointId`'s `_metadata`, for messages. */
  metadataLocation(checkpointId: number): string {
    return `${displayLocation(this.checkpointUrl(checkpointId))}/${METADATA_FILE}`;
  }

  /** Writes `_metadata` atomically: readers see no file or the whole of it. */
  writeMetadata(checkpointId: number, data: Uint8Array): Promise<void> {
    return this.#job.writeAtomic(metadataPath(checkpointId), data);
  }

  readMetadata(checkpointId: number): Promise<Uint8Array> {
    return this.#job.read(metadataPath(checkpointId));
  }

  /** The job's checkpoint directory: what `shared/` paths of incremental handles are relative to. */
  get jobDirectory(): Storage {
    return this.#job;
  }

  /** Checkpoint `checkpointId`'s directory: what private handle paths are relative to. */
  checkpointDirectory(checkpointId: number): Storage {
    return this.#job.child(checkpointDirName(checkpointId));
  }

  /**
   * Deletes checkpoint `checkpointId`'s directory in the background, and the shared files
   * (relative to the job's directory) that no retained checkpoint references any more.
   */
  discardCheckpoint(checkpointId: number, unusedSharedFiles: readonly string[] = []): void {
    this.#track(this.#job.deleteDirectory(checkpointDirName(checkpointId)), { checkpointId }, `could not delete ${this.checkpointUrl(checkpointId)}; its files stay behind`);
    this.discardSharedFiles(unusedSharedFiles);
  }

  /**
   * The IDs of the `chk-<n>` directories below the job's directory (a directory is there while
   * any file is: object stores have no empty ones). Undefined when it cannot be listed: a
   * sweep then waits for its next turn.
   */
  async checkpointDirectoryIds(): Promise<number[] | undefined> {
    let files: string[];
    try {
      files = await this.#job.list('');
    } catch (err) {
      this.logger.warn({ err: describeError(err) }, `could not list the job's checkpoint directory ${this.url} to sweep what aborted checkpoints left`);
      return undefined;
    }
    const ids = new Set<number>();
    for (const file of files) {
      const match = CHECKPOINT_DIRECTORY.exec(file);
      if (match !== null) ids.add(Number(match[1]));
    }
    return [...ids].sort((a, b) => a - b);
  }

  /** Every file of the job's directory with its size; undefined when it cannot be listed. */
  async filesWithSizes(): Promise<StoredFile[] | undefined> {
    try {
      return await this.#job.listSizes('');
    } catch (err) {
      this.logger.warn({ err: describeError(err) }, `could not list the job's checkpoint directory ${this.url} to count what is left behind`);
      return undefined;
    }
  }

  /** Resolves once the deletions in flight now have ended (each one succeeded or was logged). */
  async deletionsSettled(): Promise<void> {
    await Promise.all(this.#deleting);
  }

  /** The files below `shared/`, relative to the job's directory; none when it cannot be listed. */
  async sharedFiles(): Promise<string[]> {
    try {
      return await this.#job.list(SHARED_STATE_DIR);
    } catch (err) {
      this.logger.warn({ err: describeError(err) }, `could not list ${this.url}/${SHARED_STATE_DIR} to sweep what killed tasks uploaded`);
      return [];
    }
  }

  /** Deletes shared files (relative to the job's directory) in the background. */
  discardSharedFiles(paths: readonly string[]): void {
    for (const path of paths) {
      this.#track(this.#job.delete(path), { path }, `could not delete the shared state file ${path} in ${this.url}; it stays behind`);
    }
  }

  /** Removes the job's whole checkpoint directory. */
  async discardAll(): Promise<void> {
    await this.#track(this.root.deleteDirectory(this.jobId), {}, `could not delete the job's checkpoint directory ${this.url}; its files stay behind`);
  }

  /** Releases the storage once the deletions in flight are done. */
  async close(): Promise<void> {
    await Promise.all(this.#deleting);
    this.root.close();
  }

  /** Releases the storage now, whatever is in flight: the JobManager is shutting down. */
  closeNow(): void {
    this.root.close();
  }

  #track(deletion: Promise<void>, bindings: Record<string, unknown>, failure: string): Promise<void> {
    const tracked = deletion.then(
      () => undefined,
      (err: unknown) => this.logger.warn({ ...bindings, err: describeError(err) }, failure),
    );
    this.#deleting.add(tracked);
    void tracked.finally(() => this.#deleting.delete(tracked));
    return tracked;
  }
}

function metadataPath(checkpointId: number): string {
  return `${checkpointDirName(checkpointId)}/${METADATA_FILE}`;
}
