import { WeirError } from '@weir/common';
import { StorageErrorCode } from '../errors.ts';
import { joinPath, normalizeFilePath, normalizePath } from '../paths.ts';
import { checkSize } from '../read-limits.ts';
import type { ReadOptions, Storage, StoredFile } from '../types.ts';

export type StorageOperation = 'write' | 'writeAtomic' | 'read' | 'exists' | 'list' | 'delete' | 'deleteDirectory';

/** What a storage and all its children share. */
interface Shared {
  /** Files by their path from the root storage. */
  readonly files: Map<string, Uint8Array>;
  /** Every call as `<operation> <path from the root>`, in call order. */
  readonly log: string[];
  readonly failures: { readonly operation: StorageOperation; readonly prefix: string; readonly error: Error }[];
  readonly holds: { readonly operation: StorageOperation; readonly prefix: string; readonly released: Promise<void> }[];
}

/**
 * The Storage double of every unit test: files in memory, a log of every call, failures to
 * inject per operation and path prefix (a full disk, S3 down) and writes to hold back (a slow
 * one). It keeps the Storage contract (`storageContract`, run against it like against
 * LocalStorage and S3Storage). Children share the files, log, failures and holds, and see paths
 * from their own root.
 */
export class MemoryStorage implements Storage {
  readonly url: string;
  readonly #shared: Shared;
  readonly #root: string;

  /** `url` only names it in messages; `memory://` gives children like `memory:///chk-1`. `parent` is for `child`. */
  constructor(url = 'memory://', parent?: { readonly shared: Shared; readonly root: string }) {
    this.url = url;
    this.#shared = parent?.shared ?? { files: new Map(), log: [], failures: [], holds: [] };
    this.#root = parent?.root ?? '';
  }

  /** Files by their path from the root storage: tests may look and put files directly. */
  get files(): Map<string, Uint8Array> {
    return this.#shared.files;
  }

  get log(): string[] {
    return this.#shared.log;
  }

  /** Paths (from the root storage) of all files, sorted. */
  paths(): string[] {
    return [...this.#shared.files.keys()].sort();
  }

  /** The file at `path` from the root storage, as UTF-8. */
  text(path: string): string {
    const data = this.#shared.files.get(path);
    if (data === undefined) throw new Error(`no file ${path} in the memory storage`);
    return Buffer.from(data).toString('utf8');
  }

  /** From now on, `operation` on any path starting with `prefix` (from the root storage) fails with `error`. */
  fail(operation: StorageOperation, prefix: string, error: Error): void {
    this.#shared.failures.push({ operation, prefix, error });
  }

  /**
   * From now on, `operation` (a write) on any path starting with `prefix` (from the root storage)
   * is logged when called but takes effect, and resolves, only once the returned function is called.
   */
  hold(operation: 'write' | 'writeAtomic', prefix: string): () => void {
    let release!: () => void;
    this.#shared.holds.push({ operation, prefix, released: new Promise<void>((resolve) => (release = resolve)) });
    return release;
  }

  /** Every injected failure is gone. */
  heal(): void {
    this.#shared.failures.length = 0;
  }

  write(path: string, data: Uint8Array): Promise<void> {
    return this.#put('write', path, data);
  }

  writeAtomic(path: string, data: Uint8Array): Promise<void> {
    return this.#put('writeAtomic', path, data);
  }

  async read(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    const full = this.#enter('read', normalizeFilePath(path));
    const data = this.#shared.files.get(full);
    if (data === undefined) throw new WeirError(StorageErrorCode.STORAGE_NOT_FOUND, `no file at ${this.url}/${path}: it does not exist`);
    checkSize(`${this.url}/${path}`, data.byteLength, options.maxBytes);
    return Uint8Array.from(data);
  }

  async exists(path: string): Promise<boolean> {
    return this.#shared.files.has(this.#enter('exists', normalizeFilePath(path)));
  }

  async list(prefix: string): Promise<string[]> {
    const below = this.#below(this.#enter('list', normalizePath(prefix)));
    const own = this.#root === '' ? 0 : this.#root.length + 1;
    return this.paths()
      .filter((path) => path.startsWith(below))
      .map((path) => path.slice(own));
  }

  async listSizes(prefix: string): Promise<StoredFile[]> {
    const own = this.#root === '' ? 0 : this.#root.length + 1;
    return (await this.list(prefix)).map((path) => ({ path, bytes: this.#shared.files.get(own === 0 ? path : `${this.#root}/${path}`)?.byteLength ?? 0 }));
  }

  async delete(path: string): Promise<void> {
    this.#shared.files.delete(this.#enter('delete', normalizeFilePath(path)));
  }

  async deleteDirectory(prefix: string): Promise<void> {
    const below = this.#below(this.#enter('deleteDirectory', normalizePath(prefix)));
    for (const path of [...this.#shared.files.keys()]) if (path.startsWith(below)) this.#shared.files.delete(path);
  }

  child(path: string): MemoryStorage {
    const relative = normalizePath(path);
    return new MemoryStorage(relative === '' ? this.url : `${this.url}/${relative}`, { shared: this.#shared, root: joinPath(this.#root, relative) });
  }

  close(): void {}

  /** `path` (normalized, relative to this storage) from the root storage, logged, failing when a failure was injected for it. */
  #enter(operation: StorageOperation, path: string): string {
    const full = joinPath(this.#root, path);
    this.#shared.log.push(`${operation} ${full}`);
    const failure = this.#shared.failures.find((f) => f.operation === operation && full.startsWith(f.prefix));
    if (failure !== undefined) throw failure.error;
    return full;
  }

  /** A write: logged and checked for failures at the call, in place once the holds on it are released. */
  async #put(operation: 'write' | 'writeAtomic', path: string, data: Uint8Array): Promise<void> {
    const full = this.#enter(operation, normalizeFilePath(path));
    const copy = Uint8Array.from(data);
    const holds = this.#shared.holds.filter((hold) => hold.operation === operation && full.startsWith(hold.prefix));
    // Without a hold the file is in place when the call returns, for tests that look right after it.
    if (holds.length > 0) await Promise.all(holds.map((hold) => hold.released));
    this.#shared.files.set(full, copy);
  }

  /** What paths below the directory `full` start with: '' for the root, else `full/`, so `chk-1` never matches `chk-10/…`. */
  #below(full: string): string {
    return full === '' ? '' : `${full}/`;
  }
}
