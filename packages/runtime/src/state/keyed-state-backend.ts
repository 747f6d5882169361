import type { ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, StateDescriptor, ValueStateDescriptor } from '@weir/api';
import type { ListState, MapState, ReducingState, ValueState } from '@weir/api';
import { WeirError, type KeyGroupRange, type StateMetaInfo } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import { HeapListState, HeapMapState, HeapReducingState, HeapValueState } from './heap-states.ts';
import type { KeyContext } from './key-context.ts';
import { StateTable, type KeyGroupMaps } from './state-table.ts';

type StateKind = StateDescriptor<unknown>['kind'];

interface Registered {
  readonly kind: StateKind;
  readonly table: StateTable<unknown>;
  /** Undefined for a restored state that no function has asked for yet. */
  state: unknown;
  meta: StateMetaInfo;
}

/** One state of a keyed snapshot: its key group Maps as they were at the synchronous part. */
export interface KeyedStateView {
  readonly name: string;
  readonly meta: StateMetaInfo;
  readonly groups: KeyGroupMaps;
}

export interface KeyedSnapshot {
  readonly keyGroupRange: KeyGroupRange;
  /** By state name, sorted. */
  readonly states: readonly KeyedStateView[];
}

const GENERIC_META: StateMetaInfo = { kind: 'value', type: { kind: 'GENERIC' } };

/** The heap keyed state of one operator: one StateTable per state name, all reading the operator's current key. */
export class KeyedStateBackend {
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
    const meta: StateMetaInfo = { ...metaOf(descriptor), keyType: descriptor.keyType.describe() };
    return this.#get(descriptor, meta, (table) => new HeapMapState(table as StateTable<Map<unknown, [K, V]>>));
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.#get(descriptor, metaOf(descriptor), (table) => new HeapReducingState(table as StateTable<T>, descriptor.reduceFunction));
  }

  /** Keyed state of the runtime's own (reduce's accumulator), under a name users cannot pick by accident. */
  getInternalValueState<T>(name: string): ValueState<T> {
    return this.#get({ name: `__weir_${name}`, kind: 'value' }, GENERIC_META, (table) => new HeapValueState(table as StateTable<T>, undefined));
  }

  /** Heap state needs no opening, confirmation tracking or clean-up: see state-lifecycle.ts. */
  async open(): Promise<void> {}

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
    return { keyGroupRange: this.keys.range, states };
  }

  /** The table to restore a state into, created with the checkpoint's description; the function's descriptor later must agree on the kind. */
  tableForRestore(name: string, meta: StateMetaInfo): StateTable<unknown> {
    const existing = this.#states.get(name);
    if (existing !== undefined) {
      if (existing.kind !== meta.kind) throw this.#mismatch(name, meta.kind, existing.kind);
      return existing.table;
    }
    const table = new StateTable<unknown>(name, this.keys);
    this.#states.set(name, { kind: meta.kind, table, state: undefined, meta });
    return table;
  }

  #get<S>(descriptor: { readonly name: string; readonly kind: StateKind }, meta: StateMetaInfo, create: (table: StateTable<unknown>) => S): S {
    const existing = this.#states.get(descriptor.name);
    if (existing !== undefined) {
      if (existing.kind !== descriptor.kind) throw this.#mismatch(descriptor.name, descriptor.kind, existing.kind);
      if (existing.state === undefined) {
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

  #mismatch(name: string, asked: StateKind, existing: StateKind): WeirError {
    return new WeirError(
      RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH,
      `${this.operatorLabel} asked for ${asked} state '${name}', but '${name}' is already ${existing} state (registered or restored); ` +
        `give each state of an operator its own name, and keep a state's kind across restores`,
    );
  }
}

function metaOf(descriptor: StateDescriptor<unknown>): StateMetaInfo {
  return { kind: descriptor.kind, type: descriptor.type.describe() };
}
