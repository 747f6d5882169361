export type { Storage, StorageOpener, S3Settings, ReadOptions, StoredFile } from './types.ts';
export { StorageTooLargeError } from './read-limits.ts';
export { StorageErrorCode } from './errors.ts';
export { displayLocation, openStorage, parentLocation, s3SettingsFromConfig, type OpenStorageOptions } from './open-storage.ts';
export { LocalStorage } from './local-storage.ts';
export { S3Storage, type S3StorageOptions } from './s3-storage.ts';
export { createS3Client } from './s3-client.ts';
export { withRetry, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.ts';
export { StoragePool } from './storage-pool.ts';
