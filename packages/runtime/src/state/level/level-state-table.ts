import { WeirError } from '@weir/common';
import { decodeStateValue, packState, unpackState } from '../../checkpoint/state-codec.ts';
import { RuntimeErrorCode } from '../../errors.ts';
import type { KeyContext } from '../key-context.ts';
import type { StoredValueMigration } from '../schema-migration.ts';
import type { StateAccess } from '../state-access.ts';
import type { StateKind } from '../state-descriptors.ts';
import { stateKey } from './level-key.ts';
import { DELETED, type LevelStore } from './level-store.ts';

/**
 * One state's values in LevelDB, for the current key, in the shape the state kinds expect
 * (heap-states.ts): a value, a list array, or map state's Map of [userKey, value] by
 * normalized user key. A list or map is one LevelDB value per key (MapState.entries() is
 * synchronous, so the whole map is read at once). Read values are fresh copies, so changing
 * one in place and putting it back in the write cache is safe.
 */
export class LevelStateTable implements StateAccess<unknown> {
  readonly #name: Buffer;
  /** The last key looked up, so several accesses while processing one record build it once. */
  #keyGroup = -1;
  #normalized: unknown = undefined;
  #keyBytes: Buffer = Buffer.alloc(0);
  #keyString = '';
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
    if (kind === 'map') store.registerMapState(this.#name.toString('latin1'));
  }

  get(): unknown {
    this.#key();
    const cached = this.store.cached(this.#keyString);
    if (cached !== undefined) return cached === DELETED ? undefined : cached;
    const stored = this.store.stored(this.#keyBytes);
    if (stored === undefined) return undefined;
    const value = decodeStateValue(this.kind, unpackState(stored));
    return this.migrate === undefined ? value : this.migrate(value);
  }

  put(value: unknown): void {
    this.#key();
    this.store.set(this.#keyString, value);
  }

  putContainer(container: object): void {
    this.put(container);
  }

  /** The value read is the caller's own (decoded fresh, or the write cache's entry); putting it back marks it written. */
  getContainerForUpdate(): unknown {
    const value = this.get();
    if (value !== undefined) this.store.set(this.#keyString, value);
    return value;
  }

  remove(): void {
    this.#key();
    this.store.set(this.#keyString, DELETED);
  }

  #key(): void {
    const keys = this.keys;
    const index = keys.groupIndex;
    if (index < 0) throw this.#noKey();
    const keyGroup = keys.range.start + index;
    const normalized = this.namespaced ? keys.namespacedKey : keys.normalizedKey;
    if (keyGroup === this.#keyGroup && normalized === this.#normalized) return;
    this.#keyBytes = stateKey(keyGroup, this.#name, packState(normalized));
    this.#keyString = this.#keyBytes.toString('latin1');
    this.#keyGroup = keyGroup;
    this.#normalized = normalized;
  }

  #noKey(): WeirError {
    return new WeirError(
      RuntimeErrorCode.STATE_NO_CURRENT_KEY,
      `keyed state '${this.name}' was used outside of processing a record, so there is no current key; ` +
        `read and write keyed state in processElement (or reduce/map/filter on a KeyedStream)`,
    );
  }
}
