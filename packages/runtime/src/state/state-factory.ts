import type { ListState, ListStateDescriptor, MapState, MapStateDescriptor, ReducingState, ReducingStateDescriptor, StateDescriptor, ValueState, ValueStateDescriptor } from '@weir/api';
import type { Clock } from '@weir/common';
import { HeapListState, HeapMapState, HeapReducingState, HeapValueState } from './heap-states.ts';
import type { StateAccess } from './state-access.ts';
import { TtlListState, TtlMapState, TtlPolicy, TtlReducingState, TtlValueState, type Stamped } from './ttl-states.ts';

/**
 * The state object of a descriptor over one state's values (a heap StateTable or a LevelDB
 * table), behind the TTL decorators when the descriptor has a time to live. Both backends
 * create their states here (keyed-state-registry.ts).
 */

export type AnyState = ValueState<unknown> | ListState<unknown> | MapState<unknown, unknown> | ReducingState<unknown>;

export function valueState<T>(descriptor: ValueStateDescriptor<T>, table: StateAccess<unknown>, clock: Clock): ValueState<T> {
  const ttl = ttlPolicy(descriptor, clock);
  if (ttl === undefined) return new HeapValueState(typed<T>(table), descriptor.defaultValue);
  return new TtlValueState(new HeapValueState(typed<Stamped<T>>(table), undefined), ttl, descriptor.defaultValue);
}

export function listState<T>(descriptor: ListStateDescriptor<T>, table: StateAccess<unknown>, clock: Clock): ListState<T> {
  const ttl = ttlPolicy(descriptor, clock);
  if (ttl === undefined) return new HeapListState(typed<T[]>(table));
  return new TtlListState(new HeapListState(typed<Stamped<T>[]>(table)), ttl);
}

export function mapState<K, V>(descriptor: MapStateDescriptor<K, V>, table: StateAccess<unknown>, clock: Clock): MapState<K, V> {
  const ttl = ttlPolicy(descriptor, clock);
  if (ttl === undefined) return new HeapMapState(typed<Map<unknown, [K, V]>>(table));
  return new TtlMapState(new HeapMapState(typed<Map<unknown, [K, Stamped<V>]>>(table)), ttl);
}

export function reducingState<T>(descriptor: ReducingStateDescriptor<T>, table: StateAccess<unknown>, clock: Clock): ReducingState<T> {
  const ttl = ttlPolicy(descriptor, clock);
  if (ttl === undefined) return new HeapReducingState(typed<T>(table), descriptor.reduceFunction);
  return new TtlReducingState(new HeapValueState(typed<Stamped<T>>(table), undefined), ttl, descriptor.reduceFunction);
}

/** The runtime's own value state (reduce's accumulator, timers): no TTL. */
export function internalValueState<T>(table: StateAccess<unknown>): ValueState<T> {
  return new HeapValueState(typed<T>(table), undefined);
}

/** By the descriptor's kind, for states known only by their descriptor (a window's namespaced state). */
export function createState(descriptor: StateDescriptor<unknown>, table: StateAccess<unknown>, clock: Clock): AnyState {
  switch (descriptor.kind) {
    case 'value':
      return valueState(descriptor as ValueStateDescriptor<unknown>, table, clock);
    case 'list':
      return listState(descriptor as ListStateDescriptor<unknown>, table, clock);
    case 'map':
      return mapState(descriptor as MapStateDescriptor<unknown, unknown>, table, clock);
    case 'reducing':
      return reducingState(descriptor as ReducingStateDescriptor<unknown>, table, clock);
  }
}

function ttlPolicy(descriptor: StateDescriptor<unknown>, clock: Clock): TtlPolicy | undefined {
  const config = descriptor.getTtlConfig();
  return config === undefined ? undefined : new TtlPolicy(config, clock);
}

/**
 * The one place a table's values get their type: a table only ever holds values written by
 * states of its name and kind (the registry checks that), decoded by their descriptor's type
 * after a restore, so they are what its descriptor says (stamped when it has a TTL).
 */
function typed<V>(table: StateAccess<unknown>): StateAccess<V> {
  return table as StateAccess<V>;
}
