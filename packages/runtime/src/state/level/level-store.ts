import { describeError, WeirError } from '@weir/common';
import { ClassicLevel } from 'classic-level';
import type { PendingWork } from '../../operators/pending-work.ts';
import type { EntryCursor } from '../keyed-state-backend.ts';
import { RuntimeErrorCode } from '../../errors.ts';
import { MEMTABLE_FLUSH_KEY } from './level-key.ts';

/** Marks a key removed in the write cache until the removal reaches the DB. */
export const DELETED: unique symbol = Symbol('deleted');

export type RawOperation = { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

/**
 * Dirty entries (over all states of the DB) that go to the DB as one batch (classic-level
 * writes ~300k batched puts/s). A hot key written many times between two checkpoints reaches
 * the DB once; a checkpoint's synchronous part writes what is dirty.
 */
const FLUSH_ENTRIES = 64 * 1024;
/**
 * LevelDB's own memtable and block cache, per DB (RocksDB's defaults, which Flink keeps): a
 * 4 MB memtable made a new level-0 file every few thousand writes, and LevelDB slows writes
 * down while level 0 has many files.
 */
const WRITE_BUFFER_BYTES = 64 * 1024 * 1024;
const BLOCK_CACHE_BYTES = 32 * 1024 * 1024;

/** A state's side of the write batches: its cache (level-state-table.ts) gives its dirty entries, and learns when the DB has them. */
export interface DirtySource {
  /** Adds an operation per dirty entry, marks them clean, and keeps the objects readable until `written`. */
  takeDirty(operations: RawOperation[]): void;
  /** The batch that took the entries is in the DB. */
  written(): void;
  /** The DB was written around the cache (restore, migration): drop what it holds as the DB's. */
  forget(): void;
}

/**
 * One LevelDB database and the write batches to it. The states' caches (LevelStateTable)
 * hold the values written since the last batch; once FLUSH_ENTRIES are dirty they go to the
 * DB as one batch, in the background, while the task goes on. A second full set while a batch
 * is still being written makes the task wait for it (PendingWork) before its next record, so
 * memory stays bounded. Reads that miss the caches are synchronous `getSync`.
 */
export class LevelStore {
  #db: ClassicLevel<Buffer, Buffer> | undefined;
  readonly #sources = new Set<DirtySource>();
  #dirty = 0;
  #inFlight: Promise<void> | undefined;
  #failure: Error | undefined;

  constructor(
    /** The DB's directory. */
    readonly directory: string,
    private readonly label: string,
    private readonly work: PendingWork | undefined,
  ) {}

  async open(): Promise<void> {
    const db = new ClassicLevel<Buffer, Buffer>(this.directory, {
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      writeBufferSize: WRITE_BUFFER_BYTES,
      cacheSize: BLOCK_CACHE_BYTES,
    });
    await db.open();
    this.#db = db;
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    await this.#inFlight?.catch(() => undefined);
    if (db !== undefined && db.status === 'open') await db.close();
  }

  get isOpen(): boolean {
    return this.#db !== undefined;
  }

  addSource(source: DirtySource): void {
    this.#sources.add(source);
  }

  /** The stored bytes of a key, read synchronously. */
  stored(key: Buffer): Buffer | undefined {
    this.#throwFailure();
    try {
      return this.#database().getSync(key);
    } catch (err) {
      throw this.#levelFailure('reading state', err);
    }
  }

  /** A clean entry is about to become dirty: starts a batch first when enough are. */
  beforeDirty(): void {
    this.#throwFailure();
    if (this.#dirty >= FLUSH_ENTRIES) this.#startFlush();
  }

  /** An entry became dirty. */
  dirtied(): void {
    this.#dirty++;
  }

  /** Writes everything dirty and waits until the DB has it (a checkpoint's synchronous part, records stopped). */
  async flushAll(): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight;
    this.#throwFailure();
    if (this.#dirty !== 0) await this.#flush();
    this.#throwFailure();
  }

  /** Moves the memtable into a table file, so the DB's files hold every write. */
  async flushMemtable(): Promise<void> {
    try {
      await this.#database().compactRange(MEMTABLE_FLUSH_KEY, MEMTABLE_FLUSH_KEY);
    } catch (err) {
      throw this.#levelFailure('flushing the memtable', err);
    }
  }

  /** Writes raw entries straight to the DB (restore, migration); nothing may be dirty, and the caches must forget what they hold. */
  async writeRaw(operations: RawOperation[]): Promise<void> {
    if (operations.length === 0) return;
    for (const source of this.#sources) source.forget();
    try {
      await this.#database().batch(operations);
    } catch (err) {
      throw this.#levelFailure('writing state', err);
    }
  }

  /** Entries with keys in [gte, lt), as the DB holds them at this call (the iterator's implicit snapshot). */
  cursor(gte: Buffer, lt: Buffer): EntryCursor {
    return this.#database().iterator({ gte, lt });
  }

  #startFlush(): void {
    if (this.#inFlight !== undefined) {
      // Enough dirty while the last batch is still being written: the task waits for it before its next record.
      this.work?.add(this.#inFlight);
      return;
    }
    void this.#flush().catch(() => undefined);
  }

  #flush(): Promise<void> {
    const operations: RawOperation[] = [];
    const sources = [...this.#sources];
    for (const source of sources) source.takeDirty(operations);
    this.#dirty = 0;
    const written = this.#database()
      .batch(operations)
      .catch((err: unknown) => {
        this.#failure = this.#levelFailure('writing a batch of state', err);
        throw this.#failure;
      })
      .finally(() => {
        for (const source of sources) source.written();
        this.#inFlight = undefined;
      });
    this.#inFlight = written;
    return written;
  }

  #database(): ClassicLevel<Buffer, Buffer> {
    const db = this.#db;
    if (db === undefined) throw new WeirError(RuntimeErrorCode.LEVEL_STATE_FAILED, `the LevelDB state of ${this.label} in ${this.directory} is not open (the task is ending)`);
    return db;
  }

  #throwFailure(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  #levelFailure(what: string, err: unknown): WeirError {
    if (err instanceof WeirError) return err;
    return new WeirError(RuntimeErrorCode.LEVEL_STATE_FAILED, `${what} in the LevelDB state of ${this.label} (${this.directory}) failed: ${describeError(err)}`, { cause: err });
  }
}

export function isObject(value: unknown): boolean {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}
