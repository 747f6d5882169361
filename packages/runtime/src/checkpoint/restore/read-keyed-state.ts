import { HeapKeyedStateBackend } from '../../state/heap-keyed-state-backend.ts';
import { KeyContext } from '../../state/key-context.ts';
import { OperatorStateStore } from '../../state/operator-state-store.ts';
import type { TaskRestore } from '../types.ts';
import { restoreOperatorState } from './restore-operator-state.ts';

/**
 * Reads one operator's keyed state out of a checkpoint or savepoint, all key groups of every
 * handle, whatever the backend that wrote it: state name → normalized key → value (map state:
 * a Map of [userKey, value] by normalized user key). For tools and tests that check what a
 * snapshot holds.
 */
export async function readKeyedState(restore: TaskRestore, operatorId: string, maxParallelism: number): Promise<Map<string, Map<unknown, unknown>>> {
  const label = `operator ${operatorId}`;
  const backend = new HeapKeyedStateBackend(new KeyContext(maxParallelism, { start: 0, end: maxParallelism - 1 }, label), label);
  await restoreOperatorState(restore, { operatorId, label, keyed: backend, lists: new OperatorStateStore(label) });
  const states = new Map<string, Map<unknown, unknown>>();
  for (const state of backend.snapshot().states) {
    const entries = new Map<unknown, unknown>();
    for (const group of state.groups) if (group !== undefined) for (const [key, value] of group) entries.set(key, value);
    states.set(state.name, entries);
  }
  return states;
}
