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
  /** Throws STORAGE_NOT_FOUND when there is no such file. */
  read(path: string): Promise<Uint8Array>;
  exists(path: string): Promise<boolean>;
  /** Relative paths of all files below `prefix` (recursive), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Removes a file; no error if it is not there. */
  delete(path: string): Promise<void>;
  /** Removes everything below `prefix`; no error if nothing is there. */
  deleteDirectory(prefix: string): Promise<void>;
  /** The storage rooted at `path` below this one. */
  child(path: string): Storage;
  /** Releases clients (S3); the storage is unusable afterwards. */
  close(): void;
}

/** S3 settings, from the `s3.*` configuration keys. */
export interface S3Settings {
  readonly endpoint: string | undefined;
  readonly accessKey: string | undefined;
  readonly secretKey: string | undefined;
  readonly region: string;
  readonly pathStyleAccess: boolean;
}

/** Opens the Storage a URL or local path names (with the process's S3 settings and clients); throws INVALID_STORAGE_URL for one it cannot. */
export type StorageOpener = (url: string) => Storage;
