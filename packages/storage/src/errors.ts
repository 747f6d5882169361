/** Error codes of @weir/storage. */
export const StorageErrorCode = {
  /** A storage URL is neither `s3://bucket[/prefix]`, `file:///absolute/path` nor a plain local path. */
  INVALID_STORAGE_URL: 'INVALID_STORAGE_URL',
  /** A path given to a Storage method is absolute, contains `..`, or is empty where a file is meant. */
  INVALID_STORAGE_PATH: 'INVALID_STORAGE_PATH',
  /** A read named a file that is not there. */
  STORAGE_NOT_FOUND: 'STORAGE_NOT_FOUND',
  /** A read found a file bigger than its caller takes (`maxBytes`: state.metadata.max-size for `_metadata`, the recorded size for state files). */
  STORAGE_TOO_LARGE: 'STORAGE_TOO_LARGE',
  /** A local read named a device, FIFO or socket, or a symbolic link leading out of the storage's root directory. */
  STORAGE_NOT_REGULAR_FILE: 'STORAGE_NOT_REGULAR_FILE',
  /** A local file operation failed (not writable, disk full), or an S3 call still failed after its retries. */
  STORAGE_FAILURE: 'STORAGE_FAILURE',
} as const;
export type StorageErrorCode = (typeof StorageErrorCode)[keyof typeof StorageErrorCode];
