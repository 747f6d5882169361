import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { TypeInformation } from '../types/type-information.ts';
import { StateTtlConfig } from './ttl.ts';

/** Keyed state always reads and writes the value of the current record's key. */
export interface ValueState<T> {
  /** The value, or the descriptor's default (undefined when none) if unset. */
  value(): T | undefined;
  update(value: T): void;
  clear(): void;
}

export interface ListState<T> {
  get(): Iterable<T>;
  add(value: T): void;
  addAll(values: readonly T[]): void;
  update(values: readonly T[]): void;
  clear(): void;
}

export interface MapState<K, V> {
  get(key: K): V | undefined;
  put(key: K, value: V): void;
  putAll(entries: Iterable<readonly [K, V]>): void;
  remove(key: K): void;
  contains(key: K): boolean;
  entries(): Iterable<[K, V]>;
  keys(): Iterable<K>;
  values(): Iterable<V>;
  isEmpty(): boolean;
  clear(): void;
}

export interface ReducingState<T> {
  get(): T | undefined;
  add(value: T): void;
  clear(): void;
}

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

  getTtlConfig(): StateTtlConfig | undefined {
    return this.#ttl;
  }
}

export class ValueStateDescriptor<T> extends StateDescriptor<T> {
  readonly kind = 'value' as const;
  constructor(name: string, type: TypeInformation<T>, readonly defaultValue?: T) {
    super(name, type);
  }
}

export class ListStateDescriptor<T> extends StateDescriptor<T> {
  readonly kind = 'list' as const;
}

export class MapStateDescriptor<K, V> extends StateDescriptor<V> {
  readonly kind = 'map' as const;
  constructor(name: string, readonly keyType: TypeInformation<K>, valueType: TypeInformation<V>) {
    super(name, valueType);
  }
}

export class ReducingStateDescriptor<T> extends StateDescriptor<T> {
  readonly kind = 'reducing' as const;
  constructor(name: string, readonly reduceFunction: (a: T, b: T) => T, type: TypeInformation<T>) {
    super(name, type);
  }
}
