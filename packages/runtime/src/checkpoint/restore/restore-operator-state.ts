import { describeError, type HeapKeyedStateHandle, type OperatorStateHandle, type StateMetaInfo } from '@weir/common';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import type { OperatorStateStore } from '../../state/operator-state-store.ts';
import { decodeStateValue, unpackState, unpackStateSequence } from '../state-codec.ts';
import type { TaskRestore } from '../types.ts';
import { corruptHandle, readStateHandle } from './read-state-handle.ts';

/** One operator of the chain as the restore fills it. */
export interface RestoreTarget {
  readonly operatorId: string;
  readonly label: string;
  readonly keyed: KeyedStateBackend | undefined;
  readonly lists: OperatorStateStore;
}

/** Fills one operator's keyed state (the key groups of this subtask's range) and operator lists from the restored checkpoint. */
export async function restoreOperatorState(restore: TaskRestore, target: RestoreTarget): Promise<void> {
  const state = restore.state.operators[target.operatorId];
  // A subtask without state may come as null from `_metadata` JSON.
  if (state === undefined || state === null) return;
  for (const handle of state.keyed ?? []) {
    if (handle.backend !== 'heap') throw new Error(`keyed state of ${target.label}: the ${handle.backend} backend cannot be restored yet`);
    await restoreKeyed(restore, target, handle);
  }
  for (const handle of state.operator ?? []) await restoreLists(restore, target, handle);
}

async function restoreKeyed(restore: TaskRestore, target: RestoreTarget, handle: HeapKeyedStateHandle): Promise<void> {
  const what = `keyed state of ${target.label}`;
  const backend = target.keyed;
  if (backend === undefined) {
    throw corruptHandle(handle.handle, restore, what, 'holds keyed state, but the operator is not keyed (does the job still keyBy before it?)');
  }
  const bytes = await readStateHandle(handle.handle, restore, what);
  const own = backend.keys.range;
  const first = Math.max(own.start, handle.keyGroupRange.start);
  const last = Math.min(own.end, handle.keyGroupRange.end);
  for (let keyGroup = first; keyGroup <= last; keyGroup++) {
    const i = keyGroup - handle.keyGroupRange.start;
    const start = handle.offsets[i];
    const end = handle.offsets[i + 1] ?? bytes.byteLength;
    if (start === undefined || start > end || end > bytes.byteLength) {
      throw corruptHandle(handle.handle, restore, what, `has no valid offsets for key group ${keyGroup}`);
    }
    let chunks: unknown[];
    try {
      chunks = unpackStateSequence(bytes.subarray(start, end));
    } catch (err) {
      throw corruptHandle(handle.handle, restore, what, `does not decode at key group ${keyGroup} (${describeError(err)})`);
    }
    for (const chunk of chunks) {
      const [name, flat] = chunk as [string, unknown[]];
      const meta: StateMetaInfo | undefined = handle.states[name];
      if (meta === undefined || !Array.isArray(flat)) {
        throw corruptHandle(handle.handle, restore, what, `holds entries of state '${String(name)}', which its description does not list`);
      }
      const table = backend.tableForRestore(name, meta);
      table.restoreGroup(keyGroup - own.start, flat, (value) => decodeStateValue(meta.kind, value));
    }
  }
}

async function restoreLists(restore: TaskRestore, target: RestoreTarget, handle: OperatorStateHandle): Promise<void> {
  const what = `operator state of ${target.label}`;
  const bytes = await readStateHandle(handle.handle, restore, what);
  let lists: Record<string, unknown[]>;
  try {
    lists = unpackState(bytes) as Record<string, unknown[]>;
  } catch (err) {
    throw corruptHandle(handle.handle, restore, what, `does not decode (${describeError(err)})`);
  }
  for (const [name, { mode }] of Object.entries(handle.states)) {
    const entries = lists[name];
    if (!Array.isArray(entries)) throw corruptHandle(handle.handle, restore, what, `has no entries for list '${name}'`);
    target.lists.restore(name, mode, entries);
  }
}
