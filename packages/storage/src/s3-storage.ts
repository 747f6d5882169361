import { systemClock, WeirError, type Clock } from '@weir/common';
import { StorageErrorCode } from './errors.ts';
import type { S3Connection } from './s3-client.ts';
import { joinPath, normalizeFilePath, normalizePath } from './paths.ts';
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry.ts';
import { tooLarge } from './read-limits.ts';
import type { ReadOptions, Storage, StoredFile } from './types.ts';

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1_000;

export interface S3StorageOptions {
  readonly client: S3Connection;
  /** What close() does: destroy the client, or nothing when the client is shared and its owner closes it. */
  readonly release: () => void;
  readonly bucket: string;
  /** Key prefix of the root, without leading or trailing '/'; '' for the whole bucket. */
  readonly prefix: string;
  readonly retry?: RetryPolicy;
  readonly clock?: Clock;
}

/**
 * A Storage in an S3 bucket (AWS, MinIO, s3rver) below a key prefix. Every call goes through
 * withRetry. A child shares its parent's client and release: closing either releases both.
 */
export class S3Storage implements Storage {
  readonly url: string;
  readonly #client: S3Connection;
  readonly #release: () => void;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #retry: RetryPolicy;
  readonly #clock: Clock;

  constructor(options: S3StorageOptions) {
    this.#client = options.client;
    this.#release = options.release;
    this.#bucket = options.bucket;
    this.#prefix = options.prefix;
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.#clock = options.clock ?? systemClock;
    this.url = options.prefix === '' ? `s3://${options.bucket}` : `s3://${options.bucket}/${options.prefix}`;
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    const key = this.#fileKey(path);
    await this.#call(`write ${this.#urlOf(key)}`, async () => {
      const { client, sdk } = await this.#client.get();
      await client.send(new sdk.PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: data, ContentLength: data.byteLength }));
    });
  }

  /** One PUT: S3 shows a new object only once it was uploaded whole. */
  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    return this.write(path, data);
  }

  async read(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    const key = this.#fileKey(path);
    return this.#call(`read ${this.#urlOf(key)}`, async () => {
      const { client, sdk } = await this.#client.get();
      try {
        const response = await client.send(new sdk.GetObjectCommand({ Bucket: this.#bucket, Key: key }));
        if (options.maxBytes !== undefined && (response.ContentLength ?? Infinity) > options.maxBytes) {
          // Not one byte of the body: the object is refused on its size, as on local disk.
          (response.Body as { destroy?(): void } | undefined)?.destroy?.();
          throw tooLarge(this.#urlOf(key), response.ContentLength ?? Infinity, options.maxBytes);
        }
        // Read the body inside the attempt: a connection that drops mid-body is retried too.
        return (await response.Body?.transformToByteArray()) ?? new Uint8Array();
      } catch (error) {
        if (isNotFound(error)) {
          throw new WeirError(StorageErrorCode.STORAGE_NOT_FOUND, `no file at ${this.#urlOf(key)}: it does not exist`, { cause: error });
        }
        throw error;
      }
    });
  }

  async exists(path: string): Promise<boolean> {
    const key = this.#fileKey(path);
    return this.#call(`stat ${this.#urlOf(key)}`, async () => {
      const { client, sdk } = await this.#client.get();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    });
  }

  async list(prefix: string): Promise<string[]> {
    return (await this.listSizes(prefix)).map((file) => file.path);
  }

  async listSizes(prefix: string): Promise<StoredFile[]> {
    const objects = await this.#listObjects(joinPath(this.#prefix, normalizePath(prefix)));
    const strip = this.#prefix === '' ? 0 : this.#prefix.length + 1;
    return objects.map(({ key, bytes }) => ({ path: key.slice(strip), bytes })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async delete(path: string): Promise<void> {
    const key = this.#fileKey(path);
    await this.#call(`delete ${this.#urlOf(key)}`, async () => {
      const { client, sdk } = await this.#client.get();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
    });
  }

  async deleteDirectory(prefix: string): Promise<void> {
    const directory = joinPath(this.#prefix, normalizePath(prefix));
    const keys = (await this.#listObjects(directory)).map((object) => object.key);
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      await this.#call(`delete ${batch.length} files below ${this.#urlOf(directory)}`, async () => {
        const { client, sdk } = await this.#client.get();
        const response = await client.send(
          new sdk.DeleteObjectsCommand({
            Bucket: this.#bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const failed = response.Errors ?? [];
        if (failed.length > 0) {
          // Deleting a key twice is harmless, so the retry sends the whole batch again.
          const first = failed[0]!;
          throw new Error(`${failed.length} of ${batch.length} deletes failed, first ${first.Key}: ${first.Code} ${first.Message}`);
        }
      });
    }
  }

  child(path: string): Storage {
    return new S3Storage({
      client: this.#client,
      release: this.#release,
      bucket: this.#bucket,
      prefix: joinPath(this.#prefix, normalizePath(path)),
      retry: this.#retry,
      clock: this.#clock,
    });
  }

  close(): void {
    this.#release();
  }

  /**
   * All keys below `directory` (a full key prefix), skipping "folder" marker keys. Pages by
   * ListObjects' marker (the last key seen) rather than ListObjectsV2's continuation token:
   * s3rver encrypts that token with DES, which Node's OpenSSL 3 refuses, so any listing
   * past one page failed there.
   */
  async #listObjects(directory: string): Promise<{ key: string; bytes: number }[]> {
    const keys: { key: string; bytes: number }[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await this.#call(`list ${this.#urlOf(directory)}`, async () => {
        const { client, sdk } = await this.#client.get();
        return client.send(
          new sdk.ListObjectsCommand({
            Bucket: this.#bucket,
            ...(directory === '' ? {} : { Prefix: `${directory}/` }),
            ...(marker === undefined ? {} : { Marker: marker }),
          }),
        );
      });
      const contents = page.Contents ?? [];
      for (const object of contents) {
        if (object.Key !== undefined && !object.Key.endsWith('/')) keys.push({ key: object.Key, bytes: object.Size ?? 0 });
      }
      const last = contents.at(-1)?.Key;
      if (page.IsTruncated !== true || last === undefined) return keys;
      marker = last;
    }
  }

  #call<T>(description: string, operation: () => Promise<T>): Promise<T> {
    return withRetry(operation, description, this.#retry, this.#clock);
  }

  #fileKey(path: string): string {
    return joinPath(this.#prefix, normalizeFilePath(path));
  }

  #urlOf(key: string): string {
    return key === '' ? `s3://${this.#bucket}` : `s3://${this.#bucket}/${key}`;
  }
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'NoSuchKey' || error.name === 'NotFound') return true;
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}
