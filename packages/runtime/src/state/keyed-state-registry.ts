import type { ListState, ListStateDescriptor, MapState, MapStateDescriptor, ReducingState, ReducingStateDescriptor, StateDescriptor, ValueState, ValueStateDescriptor } from '@weir/api';
import type { Clock, StateMetaInfo } from '@weir/common';
import type { StoredValueMigration } from './schema-migration.ts';
import { storedValueMigration } from './schema-migration.ts';
import type { StateAccess } from './state-access.ts';
import { checkTtlUnchanged, descriptorMismatch, GENERIC_META, internalStateName, metaOf, type StateKind } from './state-descriptors.ts';
import { createState, internalValueState, listState, mapState, reducingState, valueState, type AnyState } from './state-factory.ts';

/** A backend's table of one state's values: the heap's StateTable or LevelDB's LevelStateTable. */
export interface RegisteredTable extends StateAccess<unknown> {
  /** Values are kept per (key, namespace): a window's state. */
  namespaced: boolean;
}

interface Registered<Table> {
  readonly kind: StateKind;
  readonly table: Table;
  /** Undefined for a restored state no function has asked for yet. */
  state: AnyState | undefined;
  meta: StateMetaInfo;
}

export interface KeyedStateRegistryOptions<Table> {
  /** The operator subtask's label, for errors. */
  readonly label: string;
  /** Processing time of state TTL. */
  readonly clock: Clock;
  readonly newTable: (name: string, kind: StateKind) => Table;
  /** A restored state is asked for the first time: evolve its values with `migrate` (undefined: same schema). */
  readonly firstUse: (table: Table, migrate: StoredValueMigration | undefined) => void;
}

/**
 * The keyed states of one operator subtask by name, for either backend: a state is created
 * the first time a function asks for it, a state asked for again (or restored) must be of the
 * same kind (and, restored, keep its TTL), and a restored state gets its schema migration on
 * first use. The state kinds run over any StateAccess, so both backends hand out the same
 * classes (state-factory.ts).
 */
export class KeyedStateRegistry<Table extends RegisteredTable> {
  readonly #states = new Map<string, Registered<Table>>();

  constructor(private readonly options: KeyedStateRegistryOptions<Table>) {}

  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T> {
    return this.#get(descriptor.name, descriptor.kind, metaOf(descriptor), false, (table) => valueState(descriptor, table, this.options.clock));
  }

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.#get(descriptor.name, descriptor.kind, metaOf(descriptor), false, (table) => listState(descriptor, table, this.options.clock));
  }

  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.#get(descriptor.name, descriptor.kind, metaOf(descriptor), false, (table) => mapState(descriptor, table, this.options.clock));
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.#get(descriptor.name, descriptor.kind, metaOf(descriptor), false, (table) => reducingState(descriptor, table, this.options.clock));
  }

  /** A window's state `name`: values per (key, window). */
  getNamespacedState(descriptor: StateDescriptor<unknown>, name: string): AnyState {
    return this.#get(name, descriptor.kind, metaOf(descriptor), true, (table) => createState(descriptor, table, this.options.clock));
  }

  getInternalValueState<T>(name: string): ValueState<T> {
    return this.#get(internalStateName(name), 'value', GENERIC_META, false, (table) => internalValueState<T>(table));
  }

  /** The table a restore writes state `name` into, created with the checkpoint's description; the function's descriptor later must agree on the kind. */
  restored(name: string, meta: StateMetaInfo): Table {
    const existing = this.#states.get(name);
    if (existing !== undefined) {
      if (existing.kind !== meta.kind) throw descriptorMismatch(this.options.label, name, meta.kind, existing.kind);
      return existing.table;
    }
    const table = this.options.newTable(name, meta.kind);
    this.#states.set(name, { kind: meta.kind, table, state: undefined, meta });
    return table;
  }

  table(name: string): Table | undefined {
    return this.#states.get(name)?.table;
  }

  /** Every state, registered or only restored, sorted by name, with its current description. */
  sorted(): { readonly name: string; readonly table: Table; readonly meta: StateMetaInfo }[] {
    return [...this.#states.keys()].sort().map((name) => {
      const { table, meta } = this.#states.get(name)!;
      return { name, table, meta };
    });
  }

  /** The description of every state, by name. */
  describe(): Record<string, StateMetaInfo> {
    return Object.fromEntries(this.sorted().map(({ name, meta }) => [name, meta]));
  }

  #get<S extends AnyState>(name: string, kind: StateKind, meta: StateMetaInfo, namespaced: boolean, create: (table: Table) => S): S {
    const existing = this.#states.get(name);
    if (existing === undefined) {
      const table = this.options.newTable(name, kind);
      table.namespaced = namespaced;
      const state = create(table);
      this.#states.set(name, { kind, table, state, meta });
      return state;
    }
    if (existing.kind !== kind) throw descriptorMismatch(this.options.label, name, kind, existing.kind);
    if (existing.state === undefined) {
      checkTtlUnchanged(this.options.label, name, existing.meta, meta);
      this.options.firstUse(existing.table, storedValueMigration(name, existing.meta, meta));
      existing.table.namespaced = namespaced;
      existing.state = create(existing.table);
      existing.meta = meta;
    }
    // The state object made for the first descriptor of this name and kind serves every later one.
    return existing.state as S;
  }
}
