import { defaultConfig, describeError, WeirError, type Clock, type TimerHandle, type WeirConfig } from '@weir/common';
import type { ClassicLevel } from 'classic-level';
import { classicLevelModule } from './classic-level-module.ts';
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
 * the DB once; a checkpoint writes what is dirty.
 */
const FLUSH_ENTRIES = 64 * 1024;
/**
 * A task that wrote no state for this long (idle, or only reading) has its dirty entries
 * written in the background, so a checkpoint finds few left to write. A busy task writes
 * all the time and keeps them, and hot keys reach the DB once per checkpoint.
 */
const QUIET_MS = 20;
/**
 * ...unless more than this many are dirty: a task whose hot keys fill the cache and that
 * pauses now and then (waiting for input) would write them all again after every pause.
 */
const QUIET_FLUSH_ENTRIES = 4096;
/**
 * A batch takes the dirty entries at once but encodes them into its write this many at a time,
 * the task's records running in between: 64k entries took the task ~100 ms in one go, which a
 * checkpoint's barrier waited for (issue 24: its synchronous part at most 10 ms).
 */
const ENCODE_SLICE = 2048;
/** LevelDB's options of each DB, from the TaskManager's state.backend.rocksdb.* keys (common's options.ts has the defaults and what each does). */
export interface LevelTuning {
  readonly writeBufferBytes: number;
  readonly cacheBytes: number;
  readonly blockBytes: number;
  readonly maxOpenFiles: number;
  readonly maxFileBytes: number;
  readonly compression: boolean;
}

/** LevelDB's options as a TaskManager's configuration sets them: the one mapping from those keys to LevelDB's names. */
export function levelTuning(config: WeirConfig): LevelTuning {
  return {
    writeBufferBytes: config['state.backend.rocksdb.writebuffer.size'],
    cacheBytes: config['state.backend.rocksdb.block.cache-size'],
    blockBytes: config['state.backend.rocksdb.block.blocksize'],
    maxOpenFiles: config['state.backend.rocksdb.files.open'],
    maxFileBytes: config['state.backend.rocksdb.compaction.level.target-file-size-base'],
    compression: config['state.backend.rocksdb.compression.per.level'] === 'SNAPPY_COMPRESSION',
  };
}

/** The keys' defaults, for stores opened without a TaskManager's configuration (tests, benches). */
const DEFAULT_LEVEL_TUNING: LevelTuning = levelTuning(defaultConfig());

/**
 * Where the caches put a batch's entries: classic-level's chained batch, which copies each
 * into the native batch at once. An array of operation objects costs ~2.5 times the CPU
 * (abstract-level copies every object, the native side reads its properties one by one).
 */
export interface BatchWriter {
  put(key: Buffer, value: Buffer): unknown;
  del(key: Buffer): unknown;
}

/** A state's side of the write batches: its cache (level-state-table.ts) gives its dirty entries, and learns when the DB has them. */
export interface DirtySource {
  /** Sets the dirty entries aside for the next batch (O(key groups)): later writes go to new dirty Maps, reads find them still. */
  freeze(): void;
  /** Puts up to `limit` of the oldest frozen entries into the batch and marks them clean, keeping objects readable until `written`; true once all are in. */
  takeFrozen(batch: BatchWriter, limit: number): boolean;
  /** The batch that took the entries is in the DB. */
  written(): void;
  /** The DB was written around the cache (restore, migration): drop what it holds as the DB's, and read every key it does not hold from the DB. */
  forget(): void;
}

export interface LevelStoreOptions {
  /** The DB's directory. */
  readonly directory: string;
  readonly label: string;
  /** Where the task waits for a write batch before its next record; undefined in tests without a task. */
  readonly work: PendingWork | undefined;
  /** Times the quiet flush (QUIET_MS). */
  readonly clock: Clock;
  /** LevelDB's options; DEFAULT_LEVEL_TUNING when unset. */
  readonly tuning?: LevelTuning;
  /** LevelDB's memtable over the tuning's: tests make it small, so the memtable is switched and tables compacted within a few writes. */
  readonly writeBufferBytes?: number;
  /** Changelog checkpoints: gets every write, batches and raw writes alike, in the order the DB gets them. */
  readonly changelog?: BatchWriter;
}

/**
 * One LevelDB database and the write batches to it. The states' caches (LevelStateTable)
 * hold the values written since the last batch; once FLUSH_ENTRIES are dirty, or the task
 * wrote nothing for QUIET_MS, they go to the DB as one batch, in the background, while the
 * task goes on. A second full set while a batch is still being written makes the task wait
 * for it (PendingWork) before its next record, so memory stays bounded. Reads that miss the
 * caches are synchronous `getSync`.
 */
export class LevelStore {
  readonly directory: string;
  #db: ClassicLevel<Buffer, Buffer> | undefined;
  readonly #options: LevelStoreOptions;
  readonly #sources = new Set<DirtySource>();
  #dirty = 0;
  #inFlight: Promise<void> | undefined;
  #failure: Error | undefined;
  /**
   * Every key the DB holds came from a cache's batch: the DB was new when opened, and neither
   * restored nor written around the caches since. A state table made while this holds starts
   * out knowing every key of its state in the DB (level-state-table.ts).
   */
  holdsOnlyCachedKeys = false;
  /** Set by every write to a state; the quiet timer clears it, and writes the dirty entries when it finds it clear. */
  wrote = false;
  #quietTimer: TimerHandle | undefined;

  constructor(options: LevelStoreOptions) {
    this.#options = options;
    this.directory = options.directory;
  }

  /** Opens a new DB (`errorIfExists`: that it holds nothing is what `holdsOnlyCachedKeys` rests on), or with `restored` the DB a restore put in the directory. */
  async open(restored = false): Promise<void> {
    if (restored) this.#uncached();
    const tuning = this.#options.tuning ?? DEFAULT_LEVEL_TUNING;
    const db = new (classicLevelModule().ClassicLevel)<Buffer, Buffer>(this.directory, {
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      writeBufferSize: this.#options.writeBufferBytes ?? tuning.writeBufferBytes,
      cacheSize: tuning.cacheBytes,
      blockSize: tuning.blockBytes,
      maxOpenFiles: tuning.maxOpenFiles,
      maxFileSize: tuning.maxFileBytes,
      compression: tuning.compression,
      errorIfExists: !restored,
    });
    await db.open();
    this.#db = db;
    this.holdsOnlyCachedKeys = !restored;
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    if (this.#quietTimer !== undefined) this.#options.clock.clearTimeout(this.#quietTimer);
    this.#quietTimer = undefined;
    await this.#inFlight;
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

  /** An entry became dirty: starts a batch, which takes it too, when enough are. */
  dirtied(): void {
    this.#throwFailure();
    this.wrote = true;
    if (++this.#dirty >= FLUSH_ENTRIES) this.#startFlush();
    this.#quietTimer ??= this.#options.clock.setTimeout(this.#quiet, QUIET_MS);
  }

  /** Resolves once no batch is being written; throws the failure of the last one. */
  async settled(): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight;
    this.#throwFailure();
  }

  /** Writes everything dirty and waits until the DB has it (records stopped). */
  async flushAll(): Promise<void> {
    await this.settled();
    if (this.#dirty === 0) return;
    const written = this.#writeBatch();
    this.#track(written);
    await written;
  }

  /**
   * A checkpoint's write, without the task waiting for it: takes every dirty entry now (the
   * state as of the barrier), writes them as one batch in the background, and runs `then`
   * once the DB has them and before any later batch starts, so `then` sees the DB exactly as
   * of this call. A batch still being written goes first. Meanwhile a full cache makes the task
   * wait, as for any batch. `sliced: false` puts the entries into the batch before it returns
   * (a changelog checkpoint, whose segment must hold them when it closes; call it once settled()).
   */
  writeDirtyThen<T>(then: () => Promise<T>, sliced = true): Promise<T> {
    const before = this.#dirty === 0 ? (this.#inFlight ?? Promise.resolve()) : this.#writeBatch(sliced);
    const result = before.then(() => {
      this.#throwFailure();
      return then();
    });
    this.#track(result);
    return result;
  }

  /** Moves the memtable into a table file, so the DB's files hold every write. */
  async flushMemtable(): Promise<void> {
    try {
      await this.#database().compactRange(MEMTABLE_FLUSH_KEY, MEMTABLE_FLUSH_KEY);
    } catch (err) {
      throw this.#levelFailure('flushing the memtable', err);
    }
  }

  /**
   * Writes raw entries straight to the DB (restore, migration); nothing may be dirty, and the
   * caches must forget what they hold. `logged: false`: changes replayed from a changelog the
   * checkpoint already holds.
   */
  async writeRaw(operations: RawOperation[], logged = true): Promise<void> {
    if (operations.length === 0) return;
    this.#uncached();
    const changelog = this.#options.changelog;
    if (logged && changelog !== undefined) {
      for (const op of operations) {
        if (op.type === 'put') changelog.put(op.key, op.value);
        else changelog.del(op.key);
      }
    }
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

  /** The DB holds, or is about to hold, keys the caches did not write. */
  #uncached(): void {
    this.holdsOnlyCachedKeys = false;
    for (const source of this.#sources) source.forget();
  }

  #startFlush(): void {
    if (this.#inFlight !== undefined) {
      // Enough dirty while the last batch is still being written: the task waits for it before its next record.
      this.#options.work?.add(this.#inFlight);
      return;
    }
    this.#track(this.#writeBatch());
  }

  /** The quiet timer: writes what is dirty once a whole QUIET_MS went by without a write; runs while a few dirty entries are left. */
  readonly #quiet = (): void => {
    this.#quietTimer = undefined;
    if (this.#db === undefined || this.#dirty === 0 || this.#dirty > QUIET_FLUSH_ENTRIES || this.#failure !== undefined) return;
    if (!this.wrote && this.#inFlight === undefined) {
      this.#track(this.#writeBatch());
      return;
    }
    this.wrote = false;
    this.#quietTimer = this.#options.clock.setTimeout(this.#quiet, QUIET_MS);
  };

  /** Makes `work` the one in flight until it settles. A batch's failure is kept (#failure) and thrown by the next read or write. */
  #track(work: Promise<unknown>): void {
    const inFlight = work.then(
      () => undefined,
      () => undefined,
    );
    this.#inFlight = inFlight;
    void inFlight.then(() => {
      if (this.#inFlight === inFlight) this.#inFlight = undefined;
    });
  }

  /**
   * Takes every dirty entry (frozen at once) and writes them as one batch after the one in
   * flight, if any; the entries go into the batch ENCODE_SLICE at a time with the task's records
   * in between, or all at once unless `sliced`.
   */
  #writeBatch(sliced = true): Promise<void> {
    const sources = [...this.#sources];
    for (const source of sources) source.freeze();
    this.#dirty = 0;
    if (!sliced) return this.#write(sources, false);
    return (this.#inFlight ?? Promise.resolve()).then(() => this.#write(sources, true));
  }

  async #write(sources: readonly DirtySource[], sliced: boolean): Promise<void> {
    this.#throwFailure();
    const batch = this.#database().batch();
    const changelog = this.#options.changelog;
    const writer = changelog === undefined ? batch : teeWriter(batch, changelog);
    try {
      for (const source of sources) {
        while (!source.takeFrozen(writer, sliced ? ENCODE_SLICE : Number.POSITIVE_INFINITY)) await yieldToTask();
      }
    } catch (err) {
      // The sources that took their entries hold them as clean: they would be lost.
      this.#failure = this.#levelFailure('writing a batch of state', err);
      batch.close().catch(() => undefined);
      throw this.#failure;
    }
    try {
      await batch.write();
    } catch (err) {
      this.#failure = this.#levelFailure('writing a batch of state', err);
      throw this.#failure;
    } finally {
      for (const source of sources) source.written();
    }
  }

  #database(): ClassicLevel<Buffer, Buffer> {
    const db = this.#db;
    if (db === undefined) throw new WeirError(RuntimeErrorCode.LEVEL_STATE_FAILED, `the LevelDB state of ${this.#options.label} in ${this.directory} is not open (the task is ending)`);
    return db;
  }

  #throwFailure(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  #levelFailure(what: string, err: unknown): WeirError {
    if (err instanceof WeirError) return err;
    return new WeirError(RuntimeErrorCode.LEVEL_STATE_FAILED, `${what} in the LevelDB state of ${this.#options.label} (${this.directory}) failed: ${describeError(err)}`, { cause: err });
  }
}

/** A writer that puts each entry into both: the DB's batch and the changelog. */
function teeWriter(batch: BatchWriter, changelog: BatchWriter): BatchWriter {
  return {
    put(key, value) {
      batch.put(key, value);
      changelog.put(key, value);
    },
    del(key) {
      batch.del(key);
      changelog.del(key);
    },
  };
}

export function isObject(value: unknown): boolean {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

/** Lets the task's loop run (records, timers) before the next slice of a batch. */
function yieldToTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
