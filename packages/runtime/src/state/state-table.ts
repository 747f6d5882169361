import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { KeyContext } from './key-context.ts';
import type { StateAccess } from './state-access.ts';

/** One state's key groups as a snapshot saw them: a Map per key group of the subtask, undefined where none was created. */
export type KeyGroupMaps = readonly (ReadonlyMap<unknown, unknown> | undefined)[];

/**
 * One keyed state's values: a Map per key group of this subtask (created on first write),
 * indexed by key group minus range start, keyed by the normalized key. Kept per key group
 * so a snapshot can write, and a rescale can move, whole key groups.
 *
 * Copy-on-write: `snapshot()` hands out the current group Maps by reference (O(key
 * groups)) and from then on the table owns none of them; the first write to a group the
 * current version does not own copies that group once. Value containers (list arrays, map
 * state's inner Maps) are shared the same way: `getContainerForUpdate` copies one the current
 * version does not own before it is changed. Until the first snapshot everything is owned,
 * so a job without checkpoints never copies.
 */
export class StateTable<V> implements StateAccess<V> {
  readonly #groups: (Map<unknown, V> | undefined)[];
  /** 1 where the current version owns the group's Map (may change it in place). */
  readonly #ownedGroups: Uint8Array;
  #ownedContainers = new WeakSet<object>();
  #snapshots = 0;
  /** Groups and containers copied because a snapshot still referenced them. */
  copies = 0;
  /** Values are kept per (key, namespace): a window's state. Set when the state is registered as namespaced. */
  namespaced = false;

  constructor(
    readonly name: string,
    private readonly keys: KeyContext,
  ) {
    this.#groups = new Array<Map<unknown, V> | undefined>(keys.groupCount).fill(undefined);
    this.#ownedGroups = new Uint8Array(keys.groupCount);
  }

  get(): V | undefined {
    const group = this.#groups[this.keys.groupIndex];
    if (group === undefined) return this.#missingGroup();
    return group.get(this.namespaced ? this.keys.namespacedKey : this.keys.normalizedKey);
  }

  put(value: V): void {
    const index = this.keys.groupIndex;
    let group = this.#groups[index];
    if (group === undefined) group = this.#createGroup();
    else if (this.#ownedGroups[index] === 0) group = this.#copyGroup(index, group);
    group.set(this.namespaced ? this.keys.namespacedKey : this.keys.normalizedKey, value);
  }

  /** Puts a new container (array, Map) that the current version owns. */
  putContainer(container: V & object): void {
    if (this.#snapshots !== 0) this.#ownedContainers.add(container);
    this.put(container);
  }

  /** The current key's container, copied first (with `copy`) when a snapshot still shares it. */
  getContainerForUpdate(copy: (shared: V) => V & object): V | undefined {
    const container = this.get();
    if (container === undefined || this.#snapshots === 0 || this.#ownedContainers.has(container as object)) return container;
    const own = copy(container);
    this.copies++;
    this.putContainer(own);
    return own;
  }

  remove(): void {
    const index = this.keys.groupIndex;
    let group = this.#groups[index];
    if (group === undefined) {
      this.#missingGroup();
      return;
    }
    const key = this.namespaced ? this.keys.namespacedKey : this.keys.normalizedKey;
    if (this.#ownedGroups[index] === 0) {
      if (!group.has(key)) return;
      group = this.#copyGroup(index, group);
    }
    group.delete(key);
  }

  /** Every stored value, group by group (restoring the timer service reads its timers this way). */
  *values(): Iterable<V> {
    for (const group of this.#groups) if (group !== undefined) yield* group.values();
  }

  /** Number of entries: keys, or (key, namespace) pairs of a namespaced state. */
  get size(): number {
    let n = 0;
    for (const group of this.#groups) n += group?.size ?? 0;
    return n;
  }

  /** Number of keys with a value in one key group (absolute key group number). */
  sizeOfKeyGroup(keyGroup: number): number {
    return this.#groups[keyGroup - this.keys.range.start]?.size ?? 0;
  }

  /**
   * The synchronous part of a checkpoint: the current group Maps, by reference. They stay
   * as they are: the table copies a group (or container) before its next change.
   */
  snapshot(): KeyGroupMaps {
    const groups = this.#groups.slice();
    this.#ownedGroups.fill(0);
    this.#ownedContainers = new WeakSet();
    this.#snapshots++;
    return groups;
  }

  /** Restore: entries `[key, value, key, value...]` of one key group (group index = key group minus range start), as the table's own. */
  restoreGroup(groupIndex: number, flat: readonly unknown[], decode: (value: unknown) => V): void {
    let group = this.#groups[groupIndex];
    if (group === undefined) {
      group = new Map();
      this.#groups[groupIndex] = group;
      this.#ownedGroups[groupIndex] = 1;
    }
    for (let i = 0; i < flat.length; i += 2) group.set(flat[i], decode(flat[i + 1]));
  }

  /** Schema evolution: every stored value through `migrate`, into group Maps the table owns. */
  migrateAll(migrate: (value: V) => V): void {
    for (let index = 0; index < this.#groups.length; index++) {
      const group = this.#groups[index];
      if (group === undefined) continue;
      const migrated = new Map<unknown, V>();
      for (const [key, value] of group) migrated.set(key, migrate(value));
      this.#groups[index] = migrated;
      this.#ownedGroups[index] = 1;
    }
  }

  #missingGroup(): undefined {
    if (this.keys.groupIndex < 0) throw this.#noKey();
    return undefined;
  }

  #createGroup(): Map<unknown, V> {
    const index = this.keys.groupIndex;
    if (index < 0) throw this.#noKey();
    const group = new Map<unknown, V>();
    this.#groups[index] = group;
    this.#ownedGroups[index] = 1;
    return group;
  }

  #copyGroup(index: number, shared: Map<unknown, V>): Map<unknown, V> {
    const group = new Map(shared);
    this.#groups[index] = group;
    this.#ownedGroups[index] = 1;
    this.copies++;
    return group;
  }

  #noKey(): WeirError {
    return new WeirError(
      RuntimeErrorCode.STATE_NO_CURRENT_KEY,
      `keyed state '${this.name}' was used outside of processing a record, so there is no current key; ` +
        `read and write keyed state in processElement (or reduce/map/filter on a KeyedStream)`,
    );
  }
}
