/**
 * A place to keep checkpoints and savepoints, chosen by URL: `file:///abs/path`, a plain
 * local path, or `s3://bucket/prefix`. Paths given to the methods are relative, '/'-separated,
 * below the storage's root; `..` is not allowed. Every remote call retries with backoff
 * (see retry.ts) before it fails with a STORAGE_* WeirError naming the URL.
 */
export interface Storage {
  /** The root as a URL (`file:///...` or `s3://bucket/prefix`). */
  readonly url: string;
  /** Writes (creating parent directories, replacing an existing file). */
  write(path: string, data: Uint8Array): Promise<void>;
  /** Writes so that readers see either nothing or the whole file: temp + rename on disk, one PUT on S3. */
  writeAtomic(path: string, data: Uint8Array): Promise<void>;
  /**
   * Throws STORAGE_NOT_FOUND when there is no such file, STORAGE_TOO_LARGE when it holds more
   * than `maxBytes` (found before its bytes are read), and on local disk STORAGE_NOT_REGULAR_FILE
   * for a device, FIFO or socket, or a symbolic link to a file outside the storage's root.
   */
  read(path: string, options?: ReadOptions): Promise<Uint8Array>;
  exists(path: string): Promise<boolean>;
  /** Relative paths of all files below `prefix` (recursive), sorted. */
  list(prefix: string): Promise<string[]>;
  /** As `list`, with each file's size: what a job's checkpoint directory holds, counted. */
  listSizes(prefix: string): Promise<StoredFile[]>;
  /** Removes a file; no error if it is not there. */
  delete(path: string): Promise<void>;
  /** Removes everything below `prefix`; no error if nothing is there. */
  deleteDirectory(prefix: string): Promise<void>;
  /** The storage rooted at `path` below this one. */
  child(path: string): Storage;
  /** Releases clients (S3); the storage is unusable afterwards. */
  close(): void;
}

/** A file `listSizes` found: its path relative to the storage, and its size in bytes. */
export interface StoredFile {
  readonly path: string;
  readonly bytes: number;
}

export interface ReadOptions {
  /**
   * The most bytes the caller takes: a larger file is refused before it is read, so a file
   * that is not what was expected (a 1.5 GB sparse file as `_metadata`) costs no memory.
   */
  readonly maxBytes?: number;
}

/** S3 settings, from the `s3.*` configuration keys. */
export interface S3Settings {
  readonly endpoint: string | undefined;
  readonly accessKey: string | undefined;
  readonly secretKey: string | undefined;
  readonly region: string;
  readonly pathStyleAccess: boolean;
  /** s3.ssl.ca: PEM of a CA trusted for an https:// endpoint, besides the system's; read (and checked) by @weir/security. */
  readonly ca?: Buffer;
}

/** Opens the Storage a URL or local path names (with the process's S3 settings and clients); throws INVALID_STORAGE_URL for one it cannot. */
export type StorageOpener = (url: string) => Storage;
