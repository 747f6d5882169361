import { openStorage, type OpenStorageOptions } from './open-storage.ts';
import { createS3Client, type S3Connection } from './s3-client.ts';
import type { S3Settings, Storage } from './types.ts';

/**
 * Storages by URL for a process that opens many (a TaskManager: one checkpoint directory per
 * job, one restore path per recovery): one Storage per URL and one S3 client for all of them,
 * created at the first s3:// URL. Storages from the pool must not be closed one by one;
 * close() releases everything.
 */
export class StoragePool {
  readonly #settings: S3Settings;
  readonly #options: Omit<OpenStorageOptions, 'sharedS3Client'>;
  readonly #storages = new Map<string, Storage>();
  #client: S3Connection | undefined;

  constructor(settings: S3Settings, options: Omit<OpenStorageOptions, 'sharedS3Client'> = {}) {
    this.#settings = settings;
    this.#options = options;
  }

  /** The storage of `url`; throws INVALID_STORAGE_URL for a URL openStorage does not accept. */
  open(url: string): Storage {
    let storage = this.#storages.get(url);
    if (storage === undefined) {
      storage = openStorage(url, this.#settings, { ...this.#options, sharedS3Client: () => this.#sharedClient() });
      this.#storages.set(url, storage);
    }
    return storage;
  }

  close(): void {
    this.#storages.clear();
    this.#client?.destroy();
    this.#client = undefined;
  }

  #sharedClient(): S3Connection {
    this.#client ??= createS3Client(this.#settings);
    return this.#client;
  }
}
