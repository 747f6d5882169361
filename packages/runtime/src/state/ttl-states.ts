import { StateVisibility, UpdateType, type ListState, type MapState, type ReducingState, type StateTtlConfig, type ValueState } from '@weir/api';
import type { Clock, StateMetaInfo } from '@weir/common';

/** A value of a state with time to live, as stored: the value and when its time to live started. */
export type Stamped<T> = [value: T, stampedAt: number];

/** What the TTL states need of a StateTtlConfig, and the clock (processing time) they measure with. */
export class TtlPolicy {
  readonly ttlMs: number;
  readonly updateOnRead: boolean;
  readonly returnExpired: boolean;

  constructor(
    config: StateTtlConfig,
    readonly clock: Clock,
  ) {
    this.ttlMs = config.ttlMs;
    this.updateOnRead = config.updateType === UpdateType.OnReadAndWrite;
    this.returnExpired = config.stateVisibility === StateVisibility.ReturnExpiredIfNotCleanedUp;
  }

  now(): number {
    return this.clock.now();
  }

  expired(stamped: Stamped<unknown>, now: number): boolean {
    return stamped[1] + this.ttlMs <= now;
  }
}

/** Value state with TTL: an expired value reads as unset and is removed when read (Flink's TtlValueState). */
export class TtlValueState<T> implements ValueState<T> {
  constructor(
    private readonly inner: ValueState<Stamped<T>>,
    private readonly ttl: TtlPolicy,
    private readonly defaultValue: T | undefined,
  ) {}

  value(): T | undefined {
    const stamped = this.inner.value();
    if (stamped === undefined) return this.defaultValue;
    const now = this.ttl.now();
    if (this.ttl.expired(stamped, now)) {
      this.inner.clear();
      return this.ttl.returnExpired ? stamped[0] : this.defaultValue;
    }
    if (this.ttl.updateOnRead) this.inner.update([stamped[0], now]);
    return stamped[0];
  }

  update(value: T): void {
    if (value === undefined) this.inner.clear();
    else this.inner.update([value, this.ttl.now()]);
  }

  clear(): void {
    this.inner.clear();
  }
}

/** Reducing state with TTL: adding to an expired value starts afresh. */
export class TtlReducingState<T> implements ReducingState<T> {
  readonly #value: TtlValueState<T>;

  constructor(
    inner: ValueState<Stamped<T>>,
    ttl: TtlPolicy,
    private readonly reduce: (a: T, b: T) => T,
  ) {
    this.#value = new TtlValueState(inner, ttl, undefined);
  }

  get(): T | undefined {
    return this.#value.value();
  }

  add(value: T): void {
    const current = this.#value.value();
    this.#value.update(current === undefined ? value : this.reduce(current, value));
  }

  clear(): void {
    this.#value.clear();
  }
}

/** List state with TTL: every element has its own time; reading drops (and removes) the expired ones. */
export class TtlListState<T> implements ListState<T> {
  constructor(
    private readonly inner: ListState<Stamped<T>>,
    private readonly ttl: TtlPolicy,
  ) {}

  get(): Iterable<T> {
    const stamped = [...this.inner.get()];
    if (stamped.length === 0) return [];
    const now = this.ttl.now();
    const fresh = stamped.filter((s) => !this.ttl.expired(s, now));
    if (this.ttl.updateOnRead) this.inner.update(fresh.map((s) => [s[0], now]));
    else if (fresh.length !== stamped.length) this.inner.update(fresh);
    return (this.ttl.returnExpired ? stamped : fresh).map((s) => s[0]);
  }

  add(value: T): void {
    this.inner.add([value, this.ttl.now()]);
  }

  addAll(values: readonly T[]): void {
    const now = this.ttl.now();
    this.inner.addAll(values.map((v): Stamped<T> => [v, now]));
  }

  update(values: readonly T[]): void {
    const now = this.ttl.now();
    this.inner.update(values.map((v): Stamped<T> => [v, now]));
  }

  clear(): void {
    this.inner.clear();
  }
}

/** Map state with TTL: every entry has its own time; reading an expired entry removes it. */
export class TtlMapState<K, V> implements MapState<K, V> {
  constructor(
    private readonly inner: MapState<K, Stamped<V>>,
    private readonly ttl: TtlPolicy,
  ) {}

  get(key: K): V | undefined {
    const stamped = this.inner.get(key);
    if (stamped === undefined) return undefined;
    const now = this.ttl.now();
    if (this.ttl.expired(stamped, now)) {
      this.inner.remove(key);
      return this.ttl.returnExpired ? stamped[0] : undefined;
    }
    if (this.ttl.updateOnRead) this.inner.put(key, [stamped[0], now]);
    return stamped[0];
  }

  put(key: K, value: V): void {
    this.inner.put(key, [value, this.ttl.now()]);
  }

  putAll(entries: Iterable<readonly [K, V]>): void {
    const now = this.ttl.now();
    for (const [key, value] of entries) this.inner.put(key, [value, now]);
  }

  remove(key: K): void {
    this.inner.remove(key);
  }

  contains(key: K): boolean {
    return this.get(key) !== undefined;
  }

  entries(): Iterable<[K, V]> {
    return this.#live();
  }

  keys(): Iterable<K> {
    return this.#live().map(([key]) => key);
  }

  values(): Iterable<V> {
    return this.#live().map(([, value]) => value);
  }

  isEmpty(): boolean {
    return this.#live().length === 0;
  }

  clear(): void {
    this.inner.clear();
  }

  /** The entries to show, expired ones removed (after iterating, as the map must not change under the iteration). */
  #live(): [K, V][] {
    const now = this.ttl.now();
    const shown: [K, V][] = [];
    const expired: K[] = [];
    const refreshed: [K, V][] = [];
    for (const [key, stamped] of this.inner.entries()) {
      if (this.ttl.expired(stamped, now)) {
        expired.push(key);
        if (this.ttl.returnExpired) shown.push([key, stamped[0]]);
      } else {
        shown.push([key, stamped[0]]);
        if (this.ttl.updateOnRead) refreshed.push([key, stamped[0]]);
      }
    }
    for (const key of expired) this.inner.remove(key);
    for (const [key, value] of refreshed) this.inner.put(key, [value, now]);
    return shown;
  }
}

/**
 * Cleanup in full snapshots (StateTtlConfig.cleanupFullSnapshot): a state's stored value in
 * its encoded form (value, list of elements, map as [userKey, value] pairs, each stamped)
 * without what expired by `now`; undefined when nothing is left. Undefined filter: the state
 * keeps everything.
 */
export function fullSnapshotFilter(meta: StateMetaInfo, now: number): ((encoded: unknown) => unknown) | undefined {
  const ttl = meta.ttl;
  if (ttl === undefined || !ttl.cleanupFullSnapshot) return undefined;
  const live = (stamped: unknown): boolean => (stamped as Stamped<unknown>)[1] + ttl.ttlMs > now;
  switch (meta.kind) {
    case 'list':
      return (encoded) => {
        const kept = (encoded as unknown[]).filter(live);
        return kept.length === 0 ? undefined : kept;
      };
    case 'map':
      return (encoded) => {
        const kept = (encoded as [unknown, unknown][]).filter(([, stamped]) => live(stamped));
        return kept.length === 0 ? undefined : kept;
      };
    default:
      return (encoded) => (live(encoded) ? encoded : undefined);
  }
}
