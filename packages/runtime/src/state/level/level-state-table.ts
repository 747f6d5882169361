import { WeirError } from '@weir/common';
import { decodeStateValue, encodeStateValue, packState, unpackState } from '../../checkpoint/state-codec.ts';
import { RuntimeErrorCode } from '../../errors.ts';
import type { KeyContext } from '../key-context.ts';
import type { StoredValueMigration } from '../schema-migration.ts';
import type { StateAccess } from '../state-access.ts';
import type { StateKind } from '../state-descriptors.ts';
import { packedKeyLatin1, shortPackedLatin1, statePrefix } from './level-key.ts';
import { DELETED, isObject, type BatchWriter, type DirtySource, type LevelStore } from './level-store.ts';

/**
 * A clean entry of a key whose value the DB holds as an object: read from the DB when used (an
 * object read from the DB is a fresh copy, safe to change in place). Kept only while the table
 * knows every key of its state in the DB, so a key it has no entry for is in no DB.
 */
const IN_DB: unique symbol = Symbol('in-db');

/** Clean entries a state keeps (primitives it read or wrote lately), so a hot key is not read from LevelDB and decoded again. */
const CLEAN_ENTRIES = 128 * 1024;
/** The cache may grow this far over its bound before clean entries go, so eviction runs now and then, not per read. */
const EVICT_SLACK = 8 * 1024;

type GroupMaps = (Map<unknown, unknown> | undefined)[];

/**
 * One state's values in LevelDB, for the current key, in the shape the state kinds expect
 * (heap-states.ts): a value, a list array, or map state's Map of [userKey, value] by
 * normalized user key. A list or map is one LevelDB value per key (MapState.entries() is
 * synchronous, so the whole map is read at once).
 *
 * In front of the DB, two caches per key group keyed by the normalized key, as the heap
 * backend's tables are: the values written since the last batch (dirty, DELETED for a
 * removal), and clean entries, primitives (or DELETED) as the DB holds them. So a hot key
 * costs a Map lookup or two, and the DB key (key group, name, NUL, MessagePack of the key) is
 * built only to read a miss or to write a batch. An object read from the DB is a fresh copy
 * every time, so changing one in place and putting it back is safe; an object written is no
 * clean entry once its batch is in the DB (IN_DB at most).
 *
 * A key no cache holds is read from the DB, unless the table is complete: the DB held nothing
 * of the state when the table began (a new DB, not restored) and the table has dropped no
 * entry of a key it wrote since, so it knows every key of its state the DB holds. A keyed
 * count over a new DB then reads no key from LevelDB before its caches overflow (Flink's
 * RocksDB backend reads each one).
 */
export class LevelStateTable implements StateAccess<unknown>, DirtySource {
  readonly #name: Buffer;
  /** Per key group of the subtask (index from range start): values written since the last batch. */
  readonly #dirty: GroupMaps;
  #dirtyEntries = 0;
  /** Per key group: clean entries (a primitive or DELETED as the DB has it, or IN_DB). */
  readonly #clean: GroupMaps;
  #cleanEntries = 0;
  /** Each group's keys' DB prefix (group, name, NUL) as latin1. */
  readonly #prefixes: string[] = [];
  /** Objects of the batch being written, by group, readable until the DB has them. */
  #flushing: GroupMaps | undefined;
  /**
   * The dirty entries each batch froze (oldest first; undefined for a batch that found none),
   * readable until the batch has put them into its write: a batch takes the cache's dirty
   * Maps at once (a checkpoint's state as of its barrier) and encodes them later, in slices.
   */
  readonly #frozen: (GroupMaps | undefined)[] = [];
  /** Where the oldest frozen set's encoding stands: its group, and the entries of that group left. */
  #taking: { index: number; entries: IterableIterator<[unknown, unknown]> | undefined; flushing: GroupMaps } | undefined;
  /** Every key of the state the DB holds has an entry here (see the class comment). */
  #complete: boolean;
  /** Where eviction goes on: it walks the groups round-robin. */
  #evictFrom = 0;
  /** Schema evolution: restored values of an older type are migrated as they are read, until the backend rewrites them. */
  migrate: StoredValueMigration | undefined;
  /** Values are kept per (key, namespace): a window's state. */
  namespaced = false;

  constructor(
    readonly name: string,
    readonly kind: StateKind,
    private readonly keys: KeyContext,
    private readonly store: LevelStore,
  ) {
    this.#name = Buffer.from(name, 'utf8');
    this.#dirty = new Array<Map<unknown, unknown> | undefined>(keys.groupCount).fill(undefined);
    this.#clean = new Array<Map<unknown, unknown> | undefined>(keys.groupCount).fill(undefined);
    this.#complete = store.holdsOnlyCachedKeys;
    store.addSource(this);
  }

  get(): unknown {
    const index = this.#groupIndex();
    const key = this.namespaced ? this.keys.namespacedKey : this.keys.normalizedKey;
    const dirty = this.#dirty[index]?.get(key);
    if (dirty !== undefined) return dirty === DELETED ? undefined : dirty;
    for (let f = this.#frozen.length - 1; f >= 0; f--) {
      const frozen = this.#frozen[f]?.[index]?.get(key);
      if (frozen !== undefined) return frozen === DELETED ? undefined : frozen;
    }
    const clean = this.#clean[index]?.get(key);
    if (clean === undefined) {
      if (this.#complete) return undefined;
    } else if (clean !== IN_DB) {
      return clean === DELETED ? undefined : clean;
    }
    const flushing = this.#flushing?.[index]?.get(key);
    if (flushing !== undefined) return flushing;
    const stored = this.store.stored(this.#dbKey(index, key));
    if (stored === undefined) {
      this.#setClean(index, key, DELETED);
      return undefined;
    }
    const value = decodeStateValue(this.kind, unpackState(stored));
    if (this.migrate !== undefined) return this.migrate(value);
    if (!isObject(value)) this.#setClean(index, key, value);
    return value;
  }

  put(value: unknown): void {
    const index = this.#groupIndex();
    const key = this.namespaced ? this.keys.namespacedKey : this.keys.normalizedKey;
    let dirty = this.#dirty[index];
    if (dirty === undefined) this.#dirty[index] = dirty = new Map();
    const size = dirty.size;
    // A Map value of undefined would read as no entry (a reduce function may return undefined): it reads as removed, as it would from the DB.
    dirty.set(key, value === undefined ? DELETED : value);
    if (dirty.size === size) {
      this.store.wrote = true;
      return;
    }
    // Newly dirty: this may start a batch, which takes this entry too.
    this.#dirtyEntries++;
    this.store.dirtied();
  }

  putContainer(container: object): void {
    this.put(container);
  }

  /** The value read is the caller's own (decoded fresh, or the cache's entry); putting it back marks it written. */
  getContainerForUpdate(): unknown {
    const value = this.get();
    if (value !== undefined) this.put(value);
    return value;
  }

  remove(): void {
    this.put(DELETED);
  }

  freeze(): void {
    if (this.#dirtyEntries === 0) {
      this.#frozen.push(undefined);
      return;
    }
    this.#dirtyEntries = 0;
    this.#frozen.push(this.#dirty.slice());
    this.#dirty.fill(undefined);
  }

  takeFrozen(batch: BatchWriter, limit: number): boolean {
    const frozen = this.#frozen[0];
    if (frozen === undefined) {
      this.#frozen.shift();
      return true;
    }
    const taking = (this.#taking ??= { index: 0, entries: undefined, flushing: [] });
    let left = limit;
    for (; taking.index < frozen.length; taking.index++, taking.entries = undefined) {
      const index = taking.index;
      const dirty = frozen[index];
      if (dirty === undefined || dirty.size === 0) continue;
      let clean = this.#clean[index];
      if (clean === undefined) this.#clean[index] = clean = new Map();
      const before = clean.size;
      const prefix = this.#prefix(index);
      const entries = (taking.entries ??= dirty.entries());
      for (let next = entries.next(); !next.done; next = entries.next()) {
        const [key, value] = next.value;
        this.#take(batch, index, clean, prefix + packedKeyLatin1(key, packState), key, value, taking.flushing);
        if (--left <= 0) {
          this.#cleanEntries += clean.size - before;
          return false;
        }
      }
      this.#cleanEntries += clean.size - before;
    }
    // Every entry is clean or flushing now: the frozen Maps are no longer read.
    this.#frozen.shift();
    this.#flushing = taking.flushing;
    this.#taking = undefined;
    return true;
  }

  /** One dirty entry into the batch: clean from now on, or (an object) readable in `flushing` until the DB has it. */
  #take(batch: BatchWriter, index: number, clean: Map<unknown, unknown>, dbKey: string, key: unknown, value: unknown, flushing: GroupMaps): void {
    if (value === DELETED) {
      batch.del(Buffer.from(dbKey, 'latin1'));
      clean.set(key, DELETED);
      return;
    }
    // A short primitive shares one buffer with its key: a third fewer objects per entry.
    const short = shortPackedLatin1(value);
    if (short !== undefined) {
      const bytes = Buffer.from(dbKey + short, 'latin1');
      batch.put(bytes.subarray(0, dbKey.length), bytes.subarray(dbKey.length));
      clean.set(key, value);
      return;
    }
    const packed = packState(encodeStateValue(this.kind, value));
    batch.put(Buffer.from(dbKey, 'latin1'), Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength));
    if (isObject(value)) {
      (flushing[index] ??= new Map()).set(key, value);
      if (this.#complete) clean.set(key, IN_DB);
      else clean.delete(key);
    } else {
      clean.set(key, value);
    }
  }

  written(): void {
    this.#flushing = undefined;
    if (this.#cleanEntries > CLEAN_ENTRIES + EVICT_SLACK) this.#evict();
  }

  forget(): void {
    this.#clean.fill(undefined);
    this.#cleanEntries = 0;
    this.#complete = false;
  }

  #setClean(index: number, key: unknown, value: unknown): void {
    let clean = this.#clean[index];
    if (clean === undefined) this.#clean[index] = clean = new Map();
    const before = clean.size;
    clean.set(key, value);
    this.#cleanEntries += clean.size - before;
  }

  /** Drops clean entries, group by group round-robin, down to CLEAN_ENTRIES: from then on, keys without an entry are read from the DB. */
  #evict(): void {
    this.#complete = false;
    const groups = this.#clean;
    for (let visited = 0; visited < groups.length && this.#cleanEntries > CLEAN_ENTRIES; visited++) {
      const index = this.#evictFrom;
      this.#evictFrom = (index + 1) % groups.length;
      this.#cleanEntries -= groups[index]?.size ?? 0;
      groups[index] = undefined;
    }
  }

  #groupIndex(): number {
    const index = this.keys.groupIndex;
    if (index < 0) throw this.#noKey();
    return index;
  }

  /** Key group (2 bytes), state name, NUL, MessagePack of the normalized key. */
  #dbKey(index: number, key: unknown): Buffer {
    return Buffer.from(this.#prefix(index) + packedKeyLatin1(key, packState), 'latin1');
  }

  #prefix(index: number): string {
    return (this.#prefixes[index] ??= statePrefix(this.keys.range.start + index, this.#name).toString('latin1'));
  }

  #noKey(): WeirError {
    return new WeirError(
      RuntimeErrorCode.STATE_NO_CURRENT_KEY,
      `keyed state '${this.name}' was used outside of processing a record, so there is no current key; ` +
        `read and write keyed state in processElement (or reduce/map/filter on a KeyedStream)`,
    );
  }
}
