import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { KeyContext } from './key-context.ts';
import { namespacedKey, splitNamespacedKey } from './namespaced-key.ts';
import type { StateAccess } from './state-access.ts';

/**
 * One state's key groups as a snapshot saw them, undefined where none was created: per group
 * its entries `[normalizedKey, value]` (a namespaced state's key is namespaced-key.ts's
 * string of namespace and key). Iterable more than once; nothing changes them.
 */
export type KeyGroupEntries = readonly (Iterable<readonly [unknown, unknown]> | undefined)[];

/** A namespaced state's entries of one namespace in one key group, and the snapshot count when this version made (or copied) them. */
interface NamespaceEntries<V> {
  readonly epoch: number;
  readonly byKey: Map<unknown, V>;
}

/**
 * One keyed state's values: a Map per key group of this subtask (created on first write),
 * indexed by key group minus range start. Kept per key group so a snapshot can write, and a
 * rescale can move, whole key groups. A plain state's group Map is keyed by the normalized
 * key; a namespaced state's (a window's) by namespace, each holding a Map by normalized key
 * (as Flink's NestedMapsStateTable), so a record's access is two lookups of strings it already
 * has (the window's cached namespace, the key) and builds no string. The string of namespace
 * and key that snapshots hold (namespaced-key.ts) is built when a snapshot is written, and
 * parsed when one is restored.
 *
 * Copy-on-write: `snapshot()` hands out the current group Maps by reference (O(key
 * groups)) and from then on the table owns none of them; the first write to a group the
 * current version does not own copies that group once, and the first write to a namespace's
 * Map made before the last snapshot copies that Map once. Value containers (list arrays, map
 * state's inner Maps) are shared the same way: `getContainerForUpdate` copies one the current
 * version does not own before it is changed. Until the first snapshot everything is owned,
 * so a job without checkpoints never copies.
 */
export class StateTable<V> implements StateAccess<V> {
  /** Plain: normalized key -> value. Namespaced: namespace -> NamespaceEntries. */
  readonly #groups: (Map<unknown, unknown> | undefined)[];
  /** 1 where the current version owns the group's Map (may change it in place). */
  readonly #ownedGroups: Uint8Array;
  #ownedContainers = new WeakSet<object>();
  /** Snapshots taken: a namespace's entries whose epoch is older are shared with one. */
  #snapshots = 0;
  #namespaced = false;
  /** Groups, namespaces' Maps and containers copied because a snapshot still referenced them. */
  copies = 0;

  constructor(
    readonly name: string,
    private readonly keys: KeyContext,
  ) {
    this.#groups = new Array<Map<unknown, unknown> | undefined>(keys.groupCount).fill(undefined);
    this.#ownedGroups = new Uint8Array(keys.groupCount);
  }

  /** Values are kept per (key, namespace): a window's state. Set when the state is registered as namespaced, which turns restored entries into nested Maps. */
  get namespaced(): boolean {
    return this.#namespaced;
  }

  set namespaced(namespaced: boolean) {
    if (namespaced === this.#namespaced) return;
    if (!namespaced) throw new Error(`state '${this.name}' is namespaced; it cannot become a plain state`);
    for (let index = 0; index < this.#groups.length; index++) {
      const restored = this.#groups[index];
      if (restored === undefined) continue;
      const group = new Map<unknown, unknown>();
      for (const [composite, value] of restored) this.#putRestored(group, composite, value as V);
      this.#groups[index] = group;
      this.#ownedGroups[index] = 1;
    }
    this.#namespaced = true;
  }

  get(): V | undefined {
    const keys = this.keys;
    const group = this.#groups[keys.groupIndex];
    if (group === undefined) return this.#missingGroup();
    if (!this.#namespaced) return group.get(keys.normalizedKey) as V | undefined;
    return (group.get(keys.namespace) as NamespaceEntries<V> | undefined)?.byKey.get(keys.normalizedKey);
  }

  put(value: V): void {
    const group = this.#ownGroup();
    if (this.#namespaced) this.#ownEntries(group).set(this.keys.normalizedKey, value);
    else group.set(this.keys.normalizedKey, value);
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
    const keys = this.keys;
    const group = this.#groups[keys.groupIndex];
    if (group === undefined) {
      this.#missingGroup();
      return;
    }
    const key = keys.normalizedKey;
    if (!this.#namespaced) {
      if (this.#ownedGroups[keys.groupIndex] === 1) group.delete(key);
      else if (group.has(key)) this.#ownGroup().delete(key);
      return;
    }
    if ((group.get(keys.namespace) as NamespaceEntries<V> | undefined)?.byKey.has(key) !== true) return;
    const own = this.#ownGroup();
    const byKey = this.#ownEntries(own);
    byKey.delete(key);
    if (byKey.size === 0) own.delete(keys.namespace);
  }

  /** Every stored value, group by group (restoring the timer service reads its timers this way). */
  *values(): Iterable<V> {
    for (const group of this.#groups) {
      if (group === undefined) continue;
      if (!this.#namespaced) yield* group.values() as Iterable<V>;
      else for (const entries of group.values()) yield* (entries as NamespaceEntries<V>).byKey.values();
    }
  }

  /** The normalized keys of a plain state that have a value, with their key group index (applyToKeyedState visits them). */
  keyEntries(): [unknown, number][] {
    if (this.#namespaced) throw new Error(`state '${this.name}' is a window's (namespaced) state; its keys are not visited`);
    const keys: [unknown, number][] = [];
    this.#groups.forEach((group, index) => {
      if (group !== undefined) for (const key of group.keys()) keys.push([key, index]);
    });
    return keys;
  }

  /** Number of entries: keys, or (key, namespace) pairs of a namespaced state. */
  get size(): number {
    let n = 0;
    for (const group of this.#groups) n += this.#entryCount(group);
    return n;
  }

  /** Number of entries in one key group (absolute key group number). */
  sizeOfKeyGroup(keyGroup: number): number {
    return this.#entryCount(this.#groups[keyGroup - this.keys.range.start]);
  }

  /**
   * The synchronous part of a checkpoint: the current group Maps, by reference (a namespaced
   * state's behind a view that names each entry as snapshots do). They stay as they are: the
   * table copies a group, namespace Map or container before its next change.
   */
  snapshot(): KeyGroupEntries {
    const groups = this.#groups.slice();
    this.#ownedGroups.fill(0);
    this.#ownedContainers = new WeakSet();
    this.#snapshots++;
    if (!this.#namespaced) return groups as (Map<unknown, V> | undefined)[];
    return groups.map((group) => (group === undefined ? undefined : { [Symbol.iterator]: () => namespacedEntries(group as Map<string, NamespaceEntries<V>>) }));
  }

  /** Restore: entries `[key, value, key, value...]` of one key group (group index = key group minus range start), as the table's own. */
  restoreGroup(groupIndex: number, flat: readonly unknown[], decode: (value: unknown) => V): void {
    let group = this.#groups[groupIndex];
    if (group === undefined) {
      group = new Map();
      this.#groups[groupIndex] = group;
      this.#ownedGroups[groupIndex] = 1;
    }
    for (let i = 0; i < flat.length; i += 2) {
      if (this.#namespaced) this.#putRestored(group, flat[i], decode(flat[i + 1]));
      else group.set(flat[i], decode(flat[i + 1]));
    }
  }

  /** Schema evolution: every stored value through `migrate`, into group Maps the table owns. */
  migrateAll(migrate: (value: V) => V): void {
    for (let index = 0; index < this.#groups.length; index++) {
      const group = this.#groups[index];
      if (group === undefined) continue;
      const migrated = new Map<unknown, unknown>();
      for (const [key, value] of group) {
        if (!this.#namespaced) {
          migrated.set(key, migrate(value as V));
          continue;
        }
        const byKey = new Map<unknown, V>();
        for (const [normalizedKey, stored] of (value as NamespaceEntries<V>).byKey) byKey.set(normalizedKey, migrate(stored));
        migrated.set(key, { epoch: this.#snapshots, byKey });
      }
      this.#groups[index] = migrated;
      this.#ownedGroups[index] = 1;
    }
  }

  /** The current key's group Map, created or copied so the current version owns it. */
  #ownGroup(): Map<unknown, unknown> {
    const index = this.keys.groupIndex;
    const group = this.#groups[index];
    if (group === undefined) return this.#createGroup();
    return this.#ownedGroups[index] === 1 ? group : this.#copyGroup(index, group);
  }

  /** The current namespace's Map in `group` (owned), created or copied so the current version owns it. */
  #ownEntries(group: Map<unknown, unknown>): Map<unknown, V> {
    const namespace = this.keys.namespace;
    const entries = group.get(namespace) as NamespaceEntries<V> | undefined;
    if (entries !== undefined && entries.epoch === this.#snapshots) return entries.byKey;
    const byKey = entries === undefined ? new Map<unknown, V>() : new Map(entries.byKey);
    if (entries !== undefined) this.copies++;
    group.set(namespace, { epoch: this.#snapshots, byKey });
    return byKey;
  }

  /** A restored entry of a namespaced state into its namespace's Map. */
  #putRestored(group: Map<unknown, unknown>, composite: unknown, value: V): void {
    const { namespace, normalizedKey } = splitNamespacedKey(composite, this.name);
    let entries = group.get(namespace) as NamespaceEntries<V> | undefined;
    if (entries === undefined) group.set(namespace, (entries = { epoch: this.#snapshots, byKey: new Map() }));
    entries.byKey.set(normalizedKey, value);
  }

  #entryCount(group: Map<unknown, unknown> | undefined): number {
    if (group === undefined) return 0;
    if (!this.#namespaced) return group.size;
    let n = 0;
    for (const entries of group.values()) n += (entries as NamespaceEntries<V>).byKey.size;
    return n;
  }

  #missingGroup(): undefined {
    if (this.keys.groupIndex < 0) throw this.#noKey();
    return undefined;
  }

  #createGroup(): Map<unknown, unknown> {
    const index = this.keys.groupIndex;
    if (index < 0) throw this.#noKey();
    const group = new Map<unknown, unknown>();
    this.#groups[index] = group;
    this.#ownedGroups[index] = 1;
    return group;
  }

  #copyGroup(index: number, shared: Map<unknown, unknown>): Map<unknown, unknown> {
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

/** A namespaced state's group as snapshots name its entries. */
function* namespacedEntries<V>(group: Map<string, NamespaceEntries<V>>): Generator<readonly [string, V]> {
  for (const [namespace, entries] of group) for (const [key, value] of entries.byKey) yield [namespacedKey(namespace, key), value];
}
