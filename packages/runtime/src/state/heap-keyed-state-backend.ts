import { systemClock, type Clock, type StateMetaInfo } from '@weir/common';
import type { KeyContext } from './key-context.ts';
import type { KeyedSnapshot, KeyedStateBackend } from './keyed-state-backend.ts';
import { KeyedStateRegistry } from './keyed-state-registry.ts';
import { RegistryBackedStates } from './registry-backed-states.ts';
import { internalStateName } from './state-descriptors.ts';
import { StateTable } from './state-table.ts';

/** The heap keyed state of one operator: one StateTable per state name, all reading the operator's current key. */
export class HeapKeyedStateBackend extends RegistryBackedStates<StateTable<unknown>> implements KeyedStateBackend {
  readonly kind = 'heap';
  protected readonly states: KeyedStateRegistry<StateTable<unknown>>;

  constructor(
    readonly keys: KeyContext,
    operatorLabel: string,
    /** Processing time of state TTL. */
    private readonly clock: Clock = systemClock,
  ) {
    super();
    this.states = new KeyedStateRegistry({
      label: operatorLabel,
      clock,
      newTable: (name) => new StateTable<unknown>(name, keys),
      // Restored and asked for the first time: evolve the restored values eagerly, before any record reads them.
      firstUse: (table, migrate) => {
        if (migrate !== undefined) table.migrateAll(migrate);
      },
    });
  }

  async internalValues(name: string): Promise<unknown[]> {
    const table = this.states.table(internalStateName(name));
    return table === undefined ? [] : [...table.values()];
  }

  /** The keys of this subtask with a value of state `name` (normalized, see key-context.ts) and their key group index. */
  keysOf(name: string): [unknown, number][] {
    return this.states.table(name)?.keyEntries() ?? [];
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
    return this.states.table(name);
  }

  /** Entries per state name (keys, or (key, namespace) pairs): what a test looks at to find state that was never cleaned up. */
  entryCounts(): Record<string, number> {
    return Object.fromEntries(this.states.sorted().map(({ name, table }) => [name, table.size]));
  }

  /** The synchronous part of a checkpoint: every state's key group Maps by reference, O(states x key groups). */
  snapshot(): KeyedSnapshot {
    const states = this.states.sorted().map(({ name, table, meta }) => ({ name, meta, groups: table.snapshot() }));
    return { kind: 'heap', keyGroupRange: this.keys.range, states, capturedAt: this.clock.now() };
  }

  /** The table to restore a state into, created with the checkpoint's description; the function's descriptor later must agree on the kind. */
  tableForRestore(name: string, meta: StateMetaInfo): StateTable<unknown> {
    return this.states.restored(name, meta);
  }
}
