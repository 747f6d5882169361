import type { ListState, MapState, ReducingState, ValueState } from '@weir/api';
import { normalizeKey } from './key-context.ts';
import type { StateAccess } from './state-access.ts';

const NO_ELEMENTS: readonly never[] = Object.freeze([]);

/** The state kinds, over any StateAccess: the heap's StateTable or a LevelDB state's write-cached table. */
export class HeapValueState<T> implements ValueState<T> {
  constructor(
    private readonly table: StateAccess<T>,
    private readonly defaultValue: T | undefined,
  ) {}

  value(): T | undefined {
    const value = this.table.get();
    return value === undefined ? this.defaultValue : value;
  }

  update(value: T): void {
    // As in Flink, updating to undefined (null there) clears.
    if (value === undefined) this.table.remove();
    else this.table.put(value);
  }

  clear(): void {
    this.table.remove();
  }
}

const copyList = <T>(list: T[]): T[] => list.slice();
const copyMap = <K, V>(map: Map<K, V>): Map<K, V> => new Map(map);

export class HeapListState<T> implements ListState<T> {
  constructor(private readonly table: StateAccess<T[]>) {}

  get(): Iterable<T> {
    return this.table.get() ?? NO_ELEMENTS;
  }

  add(value: T): void {
    const list = this.table.getContainerForUpdate(copyList);
    if (list === undefined) this.table.putContainer([value]);
    else list.push(value);
  }

  addAll(values: readonly T[]): void {
    if (values.length === 0) return;
    const list = this.table.getContainerForUpdate(copyList);
    if (list === undefined) this.table.putContainer([...values]);
    else for (const v of values) list.push(v);
  }

  update(values: readonly T[]): void {
    if (values.length === 0) this.table.remove();
    else this.table.putContainer([...values]);
  }

  clear(): void {
    this.table.remove();
  }
}

/** Entries are kept as [userKey, value] under the normalized user key, so object keys work and come back as given. */
export class HeapMapState<K, V> implements MapState<K, V> {
  constructor(private readonly table: StateAccess<Map<unknown, [K, V]>>) {}

  get(key: K): V | undefined {
    return this.table.get()?.get(normalizeKey(key))?.[1];
  }

  put(key: K, value: V): void {
    this.#map().set(normalizeKey(key), [key, value]);
  }

  putAll(entries: Iterable<readonly [K, V]>): void {
    const map = this.#map();
    for (const [key, value] of entries) map.set(normalizeKey(key), [key, value]);
  }

  remove(key: K): void {
    const normalized = normalizeKey(key);
    if (this.table.get()?.has(normalized) !== true) return;
    const map = this.table.getContainerForUpdate(copyMap)!;
    map.delete(normalized);
    if (map.size === 0) this.table.remove();
  }

  contains(key: K): boolean {
    return this.table.get()?.has(normalizeKey(key)) ?? false;
  }

  *entries(): Iterable<[K, V]> {
    const map = this.table.get();
    if (map !== undefined) for (const [key, value] of map.values()) yield [key, value];
  }

  *keys(): Iterable<K> {
    const map = this.table.get();
    if (map !== undefined) for (const entry of map.values()) yield entry[0];
  }

  *values(): Iterable<V> {
    const map = this.table.get();
    if (map !== undefined) for (const entry of map.values()) yield entry[1];
  }

  isEmpty(): boolean {
    const map = this.table.get();
    return map === undefined || map.size === 0;
  }

  clear(): void {
    this.table.remove();
  }

  #map(): Map<unknown, [K, V]> {
    let map = this.table.getContainerForUpdate(copyMap);
    if (map === undefined) this.table.putContainer((map = new Map()));
    return map;
  }
}

export class HeapReducingState<T> implements ReducingState<T> {
  constructor(
    private readonly table: StateAccess<T>,
    private readonly reduce: (a: T, b: T) => T,
  ) {}

  get(): T | undefined {
    return this.table.get();
  }

  add(value: T): void {
    const current = this.table.get();
    this.table.put(current === undefined ? value : this.reduce(current, value));
  }

  clear(): void {
    this.table.remove();
  }
}
