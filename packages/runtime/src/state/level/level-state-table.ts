import { WeirError } from '@weir/common';
import { decodeStateValue, encodeStateValue, packState, unpackState } from '../../checkpoint/state-codec.ts';
import { RuntimeErrorCode } from '../../errors.ts';
import type { KeyContext } from '../key-context.ts';
import type { StoredValueMigration } from '../schema-migration.ts';
import type { StateAccess } from '../state-access.ts';
import type { StateKind } from '../state-descriptors.ts';
import { packedKeyLatin1, statePrefix } from './level-key.ts';
import { DELETED, isObject, type DirtySource, type LevelStore, type RawOperation } from './level-store.ts';

/** A key's value in the cache: written since the last batch (dirty), or a primitive (or DELETED) as the DB has it. */
interface CacheEntry {
  value: unknown;
  dirty: boolean;
}

/** Clean entries a state keeps (primitives it read or wrote lately), so a hot key is not read from LevelDB and decoded again. */
const CLEAN_ENTRIES = 128 * 1024;
/** The cache may grow this far over its bound before clean entries go, so eviction runs now and then, not per read. */
const EVICT_SLACK = 8 * 1024;

/**
 * One state's values in LevelDB, for the current key, in the shape the state kinds expect
 * (heap-states.ts): a value, a list array, or map state's Map of [userKey, value] by
 * normalized user key. A list or map is one LevelDB value per key (MapState.entries() is
 * synchronous, so the whole map is read at once).
 *
 * In front of the DB, a cache per key group keyed by the normalized key, as the heap
 * backend's tables are: the values written since the last batch (live), and primitives as the
 * DB holds them. So a hot key costs a small Map lookup, and the DB key (key group, name, NUL,
 * MessagePack of the key) is built only to read a miss or to write a batch. An object read
 * from the DB is a fresh copy every time, so changing one in place and putting it back is
 * safe; an object written goes out of the cache with its batch.
 */
export class LevelStateTable implements StateAccess<unknown>, DirtySource {
  readonly #name: Buffer;
  /** Per key group of the subtask (index from range start): its cache, and its keys' DB prefix (group, name, NUL) as latin1. */
  readonly #groups: (Map<unknown, CacheEntry> | undefined)[];
  readonly #prefixes: string[] = [];
  /** Dirty entries in the order they became dirty: group index and key. */
  #dirtyGroups: number[] = [];
  #dirtyKeys: unknown[] = [];
  /** Objects of the batch being written, by group, readable until the DB has them. */
  #flushing: (Map<unknown, unknown> | undefined)[] | undefined;
  #entries = 0;
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
    this.#groups = new Array<Map<unknown, CacheEntry> | undefined>(keys.groupCount).fill(undefined);
    store.addSource(this);
  }

  get(): unknown {
    const index = this.#groupIndex();
    const key = this.namespaced ? this.keys.namespacedKey : this.keys.normalizedKey;
    const entry = this.#groups[index]?.get(key);
    if (entry !== undefined) return entry.value === DELETED ? undefined : entry.value;
    const flushing = this.#flushing?.[index]?.get(key);
    if (flushing !== undefined) return flushing;
    const stored = this.store.stored(this.#dbKey(index, key));
    if (stored === undefined) {
      this.#remember(index, key, DELETED);
      return undefined;
    }
    const value = decodeStateValue(this.kind, unpackState(stored));
    if (this.migrate !== undefined) return this.migrate(value);
    if (!isObject(value)) this.#remember(index, key, value);
    return value;
  }

  put(value: unknown): void {
    const index = this.#groupIndex();
    const key = this.namespaced ? this.keys.namespacedKey : this.keys.normalizedKey;
    let group = this.#groups[index];
    const entry = group?.get(key);
    if (entry?.dirty === true) {
      entry.value = value;
      this.store.wrote = true;
      return;
    }
    // A batch started here takes only entries already dirty: this one becomes dirty after it.
    this.store.beforeDirty();
    group = this.#groups[index];
    const current = group?.get(key);
    if (current !== undefined) {
      current.value = value;
      current.dirty = true;
    } else {
      if (group === undefined) this.#groups[index] = group = new Map();
      group.set(key, { value, dirty: true });
      this.#entries++;
    }
    this.#dirtyGroups.push(index);
    this.#dirtyKeys.push(key);
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

  takeDirty(operations: RawOperation[]): void {
    const groups = this.#dirtyGroups;
    const keys = this.#dirtyKeys;
    if (groups.length === 0) return;
    this.#dirtyGroups = [];
    this.#dirtyKeys = [];
    const flushing: (Map<unknown, unknown> | undefined)[] = [];
    for (let i = 0; i < groups.length; i++) {
      const index = groups[i]!;
      const key = keys[i];
      const group = this.#groups[index]!;
      // Dirty entries are never evicted; a key is listed once per time it became dirty.
      const entry = group.get(key)!;
      const value = entry.value;
      entry.dirty = false;
      const dbKey = this.#dbKey(index, key);
      if (value === DELETED) {
        operations.push({ type: 'del', key: dbKey });
        continue;
      }
      const packed = packState(encodeStateValue(this.kind, value));
      operations.push({ type: 'put', key: dbKey, value: Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength) });
      if (isObject(value)) {
        group.delete(key);
        this.#entries--;
        (flushing[index] ??= new Map()).set(key, value);
      }
    }
    this.#flushing = flushing;
  }

  written(): void {
    this.#flushing = undefined;
    if (this.#entries > CLEAN_ENTRIES + this.#dirtyKeys.length + EVICT_SLACK) this.#evict();
  }

  forget(): void {
    for (const group of this.#groups) {
      if (group === undefined) continue;
      for (const [key, entry] of group) {
        if (entry.dirty) continue;
        group.delete(key);
        this.#entries--;
      }
    }
  }

  #remember(index: number, key: unknown, value: unknown): void {
    let group = this.#groups[index];
    if (group === undefined) this.#groups[index] = group = new Map();
    group.set(key, { value, dirty: false });
    this.#entries++;
  }

  /** Drops clean entries, group by group round-robin, down to CLEAN_ENTRIES besides the dirty ones. */
  #evict(): void {
    const limit = CLEAN_ENTRIES + this.#dirtyKeys.length;
    const groups = this.#groups;
    for (let visited = 0; visited < groups.length && this.#entries > limit; visited++) {
      const group = groups[this.#evictFrom];
      this.#evictFrom = (this.#evictFrom + 1) % groups.length;
      if (group === undefined) continue;
      for (const [key, entry] of group) {
        if (entry.dirty) continue;
        group.delete(key);
        this.#entries--;
      }
    }
  }

  #groupIndex(): number {
    const index = this.keys.groupIndex;
    if (index < 0) throw this.#noKey();
    return index;
  }

  /** Key group (2 bytes), state name, NUL, MessagePack of the normalized key. */
  #dbKey(index: number, key: unknown): Buffer {
    const prefix = (this.#prefixes[index] ??= statePrefix(this.keys.range.start + index, this.#name).toString('latin1'));
    return Buffer.from(prefix + packedKeyLatin1(key, packState), 'latin1');
  }

  #noKey(): WeirError {
    return new WeirError(
      RuntimeErrorCode.STATE_NO_CURRENT_KEY,
      `keyed state '${this.name}' was used outside of processing a record, so there is no current key; ` +
        `read and write keyed state in processElement (or reduce/map/filter on a KeyedStream)`,
    );
  }
}
