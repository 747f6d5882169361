import type { ListState, ListStateDescriptor, MapState, MapStateDescriptor, ReducingState, ReducingStateDescriptor, StateDescriptor, ValueState, ValueStateDescriptor } from '@weir/api';
import type { KeyedStateRegistry, RegisteredTable } from './keyed-state-registry.ts';
import type { AnyState } from './state-factory.ts';

/**
 * The state getters of a keyed state backend, the same for the heap and LevelDB: each asks the
 * backend's KeyedStateRegistry, which only the tables behind it tell apart.
 */
export abstract class RegistryBackedStates<Table extends RegisteredTable> {
  protected abstract readonly states: KeyedStateRegistry<Table>;

  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T> {
    return this.states.getState(descriptor);
  }

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.states.getListState(descriptor);
  }

  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.states.getMapState(descriptor);
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.states.getReducingState(descriptor);
  }

  getNamespacedState(descriptor: StateDescriptor<unknown>, name: string): AnyState {
    return this.states.getNamespacedState(descriptor, name);
  }

  getInternalValueState<T>(name: string): ValueState<T> {
    return this.states.getInternalValueState(name);
  }
}
