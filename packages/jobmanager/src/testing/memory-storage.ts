import { WeirError } from '@weir/common';
import type { Storage } from '@weir/storage';

export type StorageOperation = 'write' | 'writeAtomic' | 'read' | 'exists' | 'list' | 'delete' | 'deleteDirectory';

interface Shared {
  readonly files: Map<string, Uint8Array>;
  /** Every call as `<operation> <full path>`, in call order. */
  readonly log: string[];
  readonly failures: { operation: StorageOperation; prefix: string; error: WeirError }[];
}

/**
 * A Storage in memory for unit tests: files by full path, a log of every call, and failures
 * to inject per operation and path prefix. Children share the files, log and failures.
 */
export class MemoryStorage implements Storage {
  readonly url: string;
  readonly #shared: Shared;
  readonly #prefix: string;

  constructor(url = 'memory://checkpoints', shared?: Shared, prefix = '') {
    this.url = url;
    this.#shared = shared ?? { files: new Map(), log: [], failures: [] };
    this.#prefix = prefix;
  }

  get files(): Map<string, Uint8Array> {
    return this.#shared.files;
  }

  get log(): string[] {
    return this.#shared.log;
  }

  /** Paths of all files, sorted. */
  paths(): string[] {
    return [...this.#shared.files.keys()].sort();
  }

  text(path: string): string {
    const data = this.#shared.files.get(path);
    if (data === undefined) throw new Error(`no file ${path} in the memory storage`);
    return Buffer.from(data).toString('utf8');
  }

  /** From now on, `operation` on any path starting with `prefix` (full path) fails with `error`. */
  fail(operation: StorageOperation, prefix: string, error: WeirError): void {
    this.#shared.failures.push({ operation, prefix, error });
  }

  heal(): void {
    this.#shared.failures.length = 0;
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    const full = this.#enter('write', path);
    this.#shared.files.set(full, data);
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const full = this.#enter('writeAtomic', path);
    this.#shared.files.set(full, data);
  }

  async read(path: string): Promise<Uint8Array> {
    const full = this.#enter('read', path);
    const data = this.#shared.files.get(full);
    if (data === undefined) throw new WeirError('STORAGE_NOT_FOUND', `no file at ${this.url}/${path}: it does not exist`);
    return data;
  }

  async exists(path: string): Promise<boolean> {
    return this.#shared.files.has(this.#enter('exists', path));
  }

  async list(prefix: string): Promise<string[]> {
    const full = this.#enter('list', prefix);
    const below = full === '' ? '' : `${full}/`;
    const own = this.#prefix === '' ? 0 : this.#prefix.length + 1;
    return this.paths()
      .filter((p) => p.startsWith(below))
      .map((p) => p.slice(own));
  }

  async delete(path: string): Promise<void> {
    this.#shared.files.delete(this.#enter('delete', path));
  }

  async deleteDirectory(prefix: string): Promise<void> {
    const full = this.#enter('deleteDirectory', prefix);
    for (const path of [...this.#shared.files.keys()]) {
      if (full === '' || path.startsWith(`${full}/`)) this.#shared.files.delete(path);
    }
  }

  child(path: string): MemoryStorage {
    return new MemoryStorage(`${this.url}/${path}`, this.#shared, join(this.#prefix, path));
  }

  close(): void {}

  #enter(operation: StorageOperation, path: string): string {
    const full = join(this.#prefix, path);
    this.#shared.log.push(`${operation} ${full}`);
    const failure = this.#shared.failures.find((f) => f.operation === operation && full.startsWith(f.prefix));
    if (failure !== undefined) throw failure.error;
    return full;
  }
}

function join(base: string, path: string): string {
  if (base === '') return path;
  if (path === '') return base;
  return `${base}/${path}`;
}
