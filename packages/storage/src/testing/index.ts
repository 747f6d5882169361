/** `@weir/storage/testing`: the storage doubles of other packages' tests. */
export { MemoryStorage, type StorageOperation } from './memory-storage.ts';
export { startS3rver, type RunningS3rver, type S3rverOptions } from './s3rver.ts';
