import type { ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, StateDescriptor, ValueStateDescriptor } from '@weir/api';
import type { ListState, MapState, ReducingState, ValueState } from '@weir/api';
import type { StateMetaInfo } from '@weir/common';
import { HeapListState, HeapMapState, HeapReducingState, HeapValueState } from './heap-states.ts';
import type { KeyContext } from './key-context.ts';
import type { KeyedSnapshot, KeyedStateBackend, KeyedStateView } from './keyed-state-backend.ts';
import { descriptorMismatch, GENERIC_META, internalStateName, mapMetaOf, metaOf, type StateKind } from './state-descriptors.ts';
import { storedValueMigration } from './schema-migration.ts';
import { StateTable } from './state-table.ts';

interface Registered {
  readonly kind: StateKind;
  readonly table: StateTable<unknown>;
  /** Undefined for a restored state that no function has asked for yet. */
  state: unknown;
  meta: StateMetaInfo;
}

/** The heap keyed state of one operator: one StateTable per state name, all reading the operator's current key. */
export class HeapKeyedStateBackend implements KeyedStateBackend {
  readonly kind = 'heap';
  readonly #states = new Map<string, Registered>();

  constructor(
    readonly keys: KeyContext,
    private readonly operatorLabel: string,
  ) {}

  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T> {
    return this.#get(descriptor, metaOf(descriptor), (table) => new HeapValueState(table as StateTable<T>, descriptor.defaultValue));
  }

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.#get(descriptor, metaOf(descriptor), (table) => new HeapListState(table as StateTable<T[]>));
  }

  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.#get(descriptor, mapMetaOf(descriptor), (table) => new HeapMapState(table as StateTable<Map<unknown, [K, V]>>));
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.#get(descriptor, metaOf(descriptor), (table) => new HeapReducingState(table as StateTable<T>, descriptor.reduceFunction));
  }

  getInternalValueState<T>(name: string): ValueState<T> {
    return this.#get({ name: internalStateName(name), kind: 'value' }, GENERIC_META, (table) => new HeapValueState(table as StateTable<T>, undefined));
  }

  /** Heap state needs no opening, confirmation tracking or clean-up: see state-lifecycle.ts. */
  async open(): Promise<void> {}

  async capture(): Promise<KeyedSnapshot> {
    return this.snapshot();
  }

  notifyCheckpointComplete(_checkpointId: number): void {}

  notifyCheckpointAborted(_checkpointId: number): void {}

  async dispose(): Promise<void> {}

  /** The table behind a state name. */
  table(name: string): StateTable<unknown> | undefined {
    return this.#states.get(name)?.table;
  }

  /** The synchronous part of a checkpoint: every state's key group Maps by reference, O(states x key groups). */
  snapshot(): KeyedSnapshot {
    const states: KeyedStateView[] = [];
    for (const name of [...this.#states.keys()].sort()) {
      const registered = this.#states.get(name)!;
      states.push({ name, meta: registered.meta, groups: registered.table.snapshot() });
    }
    return { kind: 'heap', keyGroupRange: this.keys.range, states };
  }

  /** The table to restore a state into, created with the checkpoint's description; the function's descriptor later must agree on the kind. */
  tableForRestore(name: string, meta: StateMetaInfo): StateTable<unknown> {
    const existing = this.#states.get(name);
    if (existing !== undefined) {
      if (existing.kind !== meta.kind) throw descriptorMismatch(this.operatorLabel, name, meta.kind, existing.kind);
      return existing.table;
    }
    const table = new StateTable<unknown>(name, this.keys);
    this.#states.set(name, { kind: meta.kind, table, state: undefined, meta });
    return table;
  }

  #get<S>(descriptor: { readonly name: string; readonly kind: StateKind }, meta: StateMetaInfo, create: (table: StateTable<unknown>) => S): S {
    const existing = this.#states.get(descriptor.name);
    if (existing !== undefined) {
      if (existing.kind !== descriptor.kind) throw descriptorMismatch(this.operatorLabel, descriptor.name, descriptor.kind, existing.kind);
      if (existing.state === undefined) {
        // Restored and asked for the first time: evolve the restored values eagerly, before any record reads them.
        const migrate = storedValueMigration(descriptor.name, existing.meta, meta);
        if (migrate !== undefined) existing.table.migrateAll(migrate);
        existing.state = create(existing.table);
        existing.meta = meta;
      }
      return existing.state as S;
    }
    const table = new StateTable<unknown>(descriptor.name, this.keys);
    const state = create(table);
    this.#states.set(descriptor.name, { kind: descriptor.kind, table, state, meta });
    return state;
  }
}
