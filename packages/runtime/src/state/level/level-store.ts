import { describeError, WeirError } from '@weir/common';
import { ClassicLevel } from 'classic-level';
import { encodeStateValue, packState } from '../../checkpoint/state-codec.ts';
import type { PendingWork } from '../../operators/pending-work.ts';
import type { EntryCursor } from '../keyed-state-backend.ts';
import { RuntimeErrorCode } from '../../errors.ts';
import { MEMTABLE_FLUSH_KEY } from './level-key.ts';

/** Marks a key removed in the write cache until the removal reaches the DB. */
export const DELETED: unique symbol = Symbol('deleted');

export type RawOperation = { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

/** Entries the write cache collects before it goes to the DB as one batch (classic-level writes ~300k batched puts/s). */
const FLUSH_ENTRIES = 16 * 1024;

/**
 * One LevelDB database with a write cache in front of it. State reads are synchronous (the
 * State API returns values, not promises): the cache first (live JS values), then the batch
 * being written, then `getSync`. Writes go to the cache, which is written as one batch once
 * it is full, in the background: the batch stays readable until the DB has it. A second full
 * cache while a batch is still being written makes the task wait for it (PendingWork) before
 * its next record, so memory stays bounded. Values are serialized when the batch is made.
 */
export class LevelStore {
  #db: ClassicLevel<Buffer, Buffer> | undefined;
  #cache = new Map<string, unknown>();
  /** The batch being written, readable until it is in the DB. */
  #flushing: Map<string, unknown> | undefined;
  #inFlight: Promise<void> | undefined;
  #failure: Error | undefined;
  /** Names (as latin1 of their UTF-8) of map states, whose Map values are written as [userKey, value] pairs. */
  readonly #mapStates = new Set<string>();

  constructor(
    /** The DB's directory. */
    readonly directory: string,
    private readonly label: string,
    private readonly work: PendingWork | undefined,
  ) {}

  async open(): Promise<void> {
    const db = new ClassicLevel<Buffer, Buffer>(this.directory, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
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

  registerMapState(latin1Name: string): void {
    this.#mapStates.add(latin1Name);
  }

  /** The cached value of a key (`DELETED` when removed), or undefined when the DB must be asked. */
  cached(key: string): unknown {
    const value = this.#cache.get(key);
    return value === undefined ? this.#flushing?.get(key) : value;
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

  set(key: string, value: unknown): void {
    this.#throwFailure();
    // Flushed before the new entry goes in: a container handed out for update stays in the cache it is changed in.
    if (this.#cache.size >= FLUSH_ENTRIES && !this.#cache.has(key)) this.#startFlush();
    this.#cache.set(key, value);
  }

  /** Writes everything cached and waits until the DB has it (a checkpoint's synchronous part, records stopped). */
  async flushAll(): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight;
    this.#throwFailure();
    if (this.#cache.size !== 0) await this.#flush();
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

  /** Writes raw entries straight to the DB (restore, migration); the cache must be empty or flushed. */
  async writeRaw(operations: RawOperation[]): Promise<void> {
    if (operations.length === 0) return;
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
      // A full cache while the last batch is still being written: the task waits for it before its next record.
      this.work?.add(this.#inFlight);
      return;
    }
    void this.#flush().catch(() => undefined);
  }

  #flush(): Promise<void> {
    const layer = this.#cache;
    this.#cache = new Map();
    const operations: RawOperation[] = [];
    for (const [key, value] of layer) {
      const keyBytes = Buffer.from(key, 'latin1');
      if (value === DELETED) operations.push({ type: 'del', key: keyBytes });
      else operations.push({ type: 'put', key: keyBytes, value: this.#serialize(key, value) });
    }
    this.#flushing = layer;
    const written = this.#database()
      .batch(operations)
      .catch((err: unknown) => {
        this.#failure = this.#levelFailure('writing a batch of state', err);
        throw this.#failure;
      })
      .finally(() => {
        if (this.#flushing === layer) this.#flushing = undefined;
        this.#inFlight = undefined;
      });
    this.#inFlight = written;
    return written;
  }

  #serialize(key: string, value: unknown): Buffer {
    const end = key.indexOf('\u0000', 2);
    const isMap = this.#mapStates.has(key.slice(2, end));
    const packed = packState(isMap ? encodeStateValue('map', value) : value);
    return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
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
