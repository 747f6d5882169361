import { WeirError } from '@weir/common';
import type { Storage } from '@weir/storage';

/**
 * An in-memory Storage for tests: files in a Map shared by every child. `failWrites` makes
 * writes fail (a full disk, S3 down) until it is cleared; `writes` lists written paths in order.
 */
export class MemoryStorage implements Storage {
  readonly url: string;

  constructor(
    readonly files: Map<string, Uint8Array> = new Map(),
    private readonly root = '',
    readonly shared: { failWrites: Error | undefined; writes: string[] } = { failWrites: undefined, writes: [] },
  ) {
    this.url = `memory:///${root}`;
  }

  get writes(): readonly string[] {
    return this.shared.writes;
  }

  set failWrites(error: Error | undefined) {
    this.shared.failWrites = error;
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    const full = this.#full(path);
    if (this.shared.failWrites !== undefined) throw this.shared.failWrites;
    this.files.set(full, Uint8Array.from(data));
    this.shared.writes.push(full);
  }

  writeAtomic(path: string, data: Uint8Array): Promise<void> {
    return this.write(path, data);
  }

  async read(path: string): Promise<Uint8Array> {
    const data = this.files.get(this.#full(path));
    if (data === undefined) throw new WeirError('STORAGE_NOT_FOUND', `${this.url}/${path} does not exist`);
    return Uint8Array.from(data);
  }

  async exists(path: string): Promise<boolean> {
    return this.files.has(this.#full(path));
  }

  async list(prefix: string): Promise<string[]> {
    const full = this.#full(prefix);
    const base = this.root === '' ? '' : `${this.root}/`;
    return [...this.files.keys()].filter((k) => k.startsWith(full)).map((k) => k.slice(base.length)).sort();
  }

  async delete(path: string): Promise<void> {
    this.files.delete(this.#full(path));
  }

  async deleteDirectory(prefix: string): Promise<void> {
    const full = this.#full(prefix);
    for (const key of [...this.files.keys()]) if (key.startsWith(full)) this.files.delete(key);
  }

  child(path: string): Storage {
    return new MemoryStorage(this.files, this.#full(path), this.shared);
  }

  close(): void {}

  #full(path: string): string {
    if (path.split('/').includes('..')) throw new WeirError('INVALID_STORAGE_PATH', `'..' is not allowed in storage paths: ${path}`);
    return this.root === '' ? path : `${this.root}/${path}`;
  }
}
