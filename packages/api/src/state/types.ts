import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { TypeInformation } from '../types/type-information.ts';
import { StateTtlConfig } from './ttl.ts';

/** Keyed state always reads and writes the value of the current record's key. */
export interface ValueState<T> {
  /** The value, or the descriptor's default (undefined when none) if unset. */
  value(): T | undefined;
  /** Replaces the current key's state. */
  update(value: T): void;
  /** Removes the current key's state. */
  clear(): void;
}

/** A list per key (Flink's ListState); also a CheckpointedFunction's operator state. */
export interface ListState<T> {
  /** The current key's state: a list's elements, a reduced value, or the value a map holds for `key`. */
  get(): Iterable<T>;
  /** Adds to the current key's state: appends to a list, or reduces into a reducing state. */
  add(value: T): void;
  /** Appends the values to the current key's list. */
  addAll(values: readonly T[]): void;
  /** Replaces the current key's state. */
  update(values: readonly T[]): void;
  /** Removes the current key's state. */
  clear(): void;
}

/** A map per key (Flink's MapState); also broadcast state. */
export interface MapState<K, V> {
  /** The current key's state: a list's elements, a reduced value, or the value a map holds for `key`. */
  get(key: K): V | undefined;
  /** Sets the value for `key` in the current key's map. */
  put(key: K, value: V): void;
  /** Sets every given entry in the current key's map. */
  putAll(entries: Iterable<readonly [K, V]>): void;
  /** Removes `key` from the current key's map. */
  remove(key: K): void;
  /** Whether the current key's map has `key`. */
  contains(key: K): boolean;
  /** The current key's map entries. */
  entries(): Iterable<[K, V]>;
  /** The current key's map keys. */
  keys(): Iterable<K>;
  /** The current key's map values. */
  values(): Iterable<V>;
  /** Whether the current key's map has no entries. */
  isEmpty(): boolean;
  /** Removes the current key's state. */
  clear(): void;
}

/** One value per key that added values are reduced into (Flink's ReducingState). */
export interface ReducingState<T> {
  /** The current key's state: a list's elements, a reduced value, or the value a map holds for `key`. */
  get(): T | undefined;
  /** Adds to the current key's state: appends to a list, or reduces into a reducing state. */
  add(value: T): void;
  /** Removes the current key's state. */
  clear(): void;
}

/** Names a state and its type (Flink's StateDescriptor): the name is how a restore finds it. */
export abstract class StateDescriptor<T> {
  constructor(
    /** Unique per operator; the name state is restored by. */
    readonly name: string,
    readonly type: TypeInformation<T>,
  ) {
    if (typeof name !== 'string' || name.length === 0) {
      throw new TypeError('a state descriptor needs a non-empty name');
    }
  }
  abstract readonly kind: 'value' | 'list' | 'map' | 'reducing';
  #ttl: StateTtlConfig | undefined;

  /** Values of this state expire `config.ttlMs` after their last write (Flink's enableTimeToLive). */
  enableTimeToLive(config: StateTtlConfig): void {
    if (!(config instanceof StateTtlConfig)) {
      throw new WeirError(ApiErrorCode.INVALID_STATE_TTL, `enableTimeToLive() takes what StateTtlConfig.newBuilder(ttl).build() makes, got ${String(config)}`);
    }
    this.#ttl = config;
  }

  /** The state's time-to-live settings, when enableTimeToLive was called. */
  getTtlConfig(): StateTtlConfig | undefined {
    return this.#ttl;
  }
}

/** Describes a ValueState; `defaultValue` is what value() returns for a key without one. */
export class ValueStateDescriptor<T> extends StateDescriptor<T> {
  readonly kind = 'value' as const;
  constructor(name: string, type: TypeInformation<T>, readonly defaultValue?: T) {
    super(name, type);
  }
}

/** Describes a ListState (keyed, or operator state). */
export class ListStateDescriptor<T> extends StateDescriptor<T> {
  readonly kind = 'list' as const;
}

/** Describes a MapState, or a broadcast state (`stream.broadcast(descriptor)`). */
export class MapStateDescriptor<K, V> extends StateDescriptor<V> {
  readonly kind = 'map' as const;
  constructor(name: string, readonly keyType: TypeInformation<K>, valueType: TypeInformation<V>) {
    super(name, valueType);
  }
}

/** Describes a ReducingState and the function it reduces with. */
export class ReducingStateDescriptor<T> extends StateDescriptor<T> {
  readonly kind = 'reducing' as const;
  /** @param reduceFunction Combines the value held with each value added (Flink's ReduceFunction). */
  constructor(name: string, readonly reduceFunction: (a: T, b: T) => T, type: TypeInformation<T>) {
    super(name, type);
  }
}
