import type { ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, StateDescriptor, ValueStateDescriptor } from '@weir/api';
import type { ListState, MapState, ReducingState, ValueState } from '@weir/api';
import { systemClock, type Clock, type StateMetaInfo } from '@weir/common';
import { HeapValueState } from './heap-states.ts';
import type { KeyContext } from './key-context.ts';
import type { KeyedSnapshot, KeyedStateBackend, KeyedStateView } from './keyed-state-backend.ts';
import { checkTtlUnchanged, descriptorMismatch, GENERIC_META, internalStateName, metaOf, type StateKind } from './state-descriptors.ts';
import { createState } from './state-factory.ts';
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
    /** Processing time of state TTL. */
    private readonly clock: Clock = systemClock,
  ) {}

  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T> {
    return this.#get(descriptor as StateDescriptor<unknown>, false, descriptor.name) as ValueState<T>;
  }

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.#get(descriptor as StateDescriptor<unknown>, false, descriptor.name) as ListState<T>;
  }

  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.#get(descriptor as StateDescriptor<unknown>, false, descriptor.name) as MapState<K, V>;
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.#get(descriptor as StateDescriptor<unknown>, false, descriptor.name) as ReducingState<T>;
  }

  getNamespacedState(descriptor: StateDescriptor<unknown>, name: string): unknown {
    return this.#get(descriptor, true, name);
  }

  getInternalValueState<T>(name: string): ValueState<T> {
    return this.#register(internalStateName(name), 'value', GENERIC_META, false, (table) => new HeapValueState(table as StateTable<T>, undefined)) as ValueState<T>;
  }

  async internalValues(name: string): Promise<unknown[]> {
    const table = this.#states.get(internalStateName(name))?.table;
    return table === undefined ? [] : [...table.values()];
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

  /** Entries per state name (keys, or (key, namespace) pairs): what a test looks at to find state that was never cleaned up. */
  entryCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [name, registered] of this.#states) counts[name] = registered.table.size;
    return counts;
  }

  /** The synchronous part of a checkpoint: every state's key group Maps by reference, O(states x key groups). */
  snapshot(): KeyedSnapshot {
    const states: KeyedStateView[] = [];
    for (const name of [...this.#states.keys()].sort()) {
      const registered = this.#states.get(name)!;
      states.push({ name, meta: registered.meta, groups: registered.table.snapshot() });
    }
    return { kind: 'heap', keyGroupRange: this.keys.range, states, capturedAt: this.clock.now() };
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

  #get(descriptor: StateDescriptor<unknown>, namespaced: boolean, name: string): unknown {
    return this.#register(name, descriptor.kind, metaOf(descriptor), namespaced, (table) => createState(descriptor, table, this.clock));
  }

  #register(name: string, kind: StateKind, meta: StateMetaInfo, namespaced: boolean, create: (table: StateTable<unknown>) => unknown): unknown {
    const existing = this.#states.get(name);
    if (existing !== undefined) {
      if (existing.kind !== kind) throw descriptorMismatch(this.operatorLabel, name, kind, existing.kind);
      if (existing.state === undefined) {
        // Restored and asked for the first time: evolve the restored values eagerly, before any record reads them.
        checkTtlUnchanged(this.operatorLabel, name, existing.meta, meta);
        const migrate = storedValueMigration(name, existing.meta, meta);
        if (migrate !== undefined) existing.table.migrateAll(migrate);
        existing.table.namespaced = namespaced;
        existing.state = create(existing.table);
        existing.meta = meta;
      }
      return existing.state;
    }
    const table = new StateTable<unknown>(name, this.keys);
    table.namespaced = namespaced;
    const state = create(table);
    this.#states.set(name, { kind, table, state, meta });
    return state;
  }
}
