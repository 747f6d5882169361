import type { ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, StateDescriptor, ValueStateDescriptor } from '@weir/api';
import type { ListState, MapState, ReducingState, ValueState } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import { HeapListState, HeapMapState, HeapReducingState, HeapValueState } from './heap-states.ts';
import type { KeyContext } from './key-context.ts';
import { StateTable } from './state-table.ts';

type StateKind = StateDescriptor<unknown>['kind'];

interface Registered {
  readonly kind: StateKind;
  readonly table: StateTable<unknown>;
  readonly state: unknown;
}

/** The heap keyed state of one operator: one StateTable per state name, all reading the operator's current key. */
export class KeyedStateBackend {
  readonly #states = new Map<string, Registered>();

  constructor(
    readonly keys: KeyContext,
    private readonly operatorLabel: string,
  ) {}

  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T> {
    return this.#get(descriptor, (table) => new HeapValueState(table as StateTable<T>, descriptor.defaultValue));
  }

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.#get(descriptor, (table) => new HeapListState(table as StateTable<T[]>));
  }

  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.#get(descriptor, (table) => new HeapMapState(table as StateTable<Map<unknown, [K, V]>>));
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.#get(descriptor, (table) => new HeapReducingState(table as StateTable<T>, descriptor.reduceFunction));
  }

  /** Keyed state of the runtime's own (reduce's accumulator), under a name users cannot pick by accident. */
  getInternalValueState<T>(name: string): ValueState<T> {
    return this.#get({ name: `__weir_${name}`, kind: 'value' }, (table) => new HeapValueState(table as StateTable<T>, undefined));
  }

  /** The table behind a state name. */
  table(name: string): StateTable<unknown> | undefined {
    return this.#states.get(name)?.table;
  }

  #get<S>(descriptor: { readonly name: string; readonly kind: StateKind }, create: (table: StateTable<unknown>) => S): S {
    const existing = this.#states.get(descriptor.name);
    if (existing !== undefined) {
      if (existing.kind !== descriptor.kind) {
        throw new WeirError(
          RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH,
          `${this.operatorLabel} asked for ${descriptor.kind} state '${descriptor.name}', but '${descriptor.name}' is already ` +
            `${existing.kind} state; give each state of an operator its own name`,
        );
      }
      return existing.state as S;
    }
    const table = new StateTable<unknown>(descriptor.name, this.keys);
    const state = create(table);
    this.#states.set(descriptor.name, { kind: descriptor.kind, table, state });
    return state;
  }
}
