import { decodeOperatorLists, type HeapKeyedStateHandle, type KeyedStateHandle, type OperatorStateHandle } from '@weir/common';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import { HeapKeyedStateBackend } from '../../state/heap-keyed-state-backend.ts';
import { LevelKeyedStateBackend } from '../../state/level/level-keyed-state-backend.ts';
import type { OperatorStateStore } from '../../state/operator-state-store.ts';
import { decodeStateValue, unpackListEntry } from '../state-codec.ts';
import type { TaskRestore } from '../types.ts';
import { forEachCanonicalChunk } from './canonical-reader.ts';
import { corruptHandle, readStateHandle } from './read-state-handle.ts';
import { restoreIntoLevel, restoreLevelIntoHeap } from './restore-level.ts';

/** One operator of the chain as the restore fills it. */
export interface RestoreTarget {
  readonly operatorId: string;
  readonly label: string;
  readonly keyed: KeyedStateBackend | undefined;
  readonly lists: OperatorStateStore;
}

/**
 * Fills one operator's keyed state (the key groups of this subtask's range) and operator
 * lists from the restored checkpoint or savepoint. Keyed handles of either format restore into
 * either backend: canonical (heap) handles are read group by group; LevelDB handles are
 * downloaded and opened as they are when the range is this subtask's, or copied key group
 * range by key group range otherwise.
 */
export async function restoreOperatorState(restore: TaskRestore, target: RestoreTarget): Promise<void> {
  const state = restore.state.operators[target.operatorId];
  // A subtask without state may come as null from `_metadata` JSON.
  if (state === undefined || state === null) return;
  const keyed = state.keyed ?? [];
  if (keyed.length !== 0) await restoreKeyed(restore, target, keyed);
  for (const handle of state.operator ?? []) await restoreLists(restore, target, handle);
}

async function restoreKeyed(restore: TaskRestore, target: RestoreTarget, handles: readonly KeyedStateHandle[]): Promise<void> {
  const what = `keyed state of ${target.label}`;
  const backend = target.keyed;
  if (backend === undefined) {
    const first = handles[0]!;
    const where = first.backend === 'heap' ? first.handle : { kind: 'file' as const, path: first.files[0]?.path ?? '(no files)', size: 0 };
    throw corruptHandle(where, restore, what, 'holds keyed state, but the operator is not keyed (does the job still keyBy before it?)');
  }
  if (backend instanceof LevelKeyedStateBackend) {
    await restoreIntoLevel(restore, backend, handles, what);
    return;
  }
  if (!(backend instanceof HeapKeyedStateBackend)) throw new Error(`${what}: no restore for the ${backend.kind} backend`);
  for (const handle of handles) {
    if (handle.backend === 'level') await restoreLevelIntoHeap(restore, backend, handle, what);
    else await restoreCanonicalIntoHeap(restore, backend, handle, what);
  }
}

async function restoreCanonicalIntoHeap(restore: TaskRestore, backend: HeapKeyedStateBackend, handle: HeapKeyedStateHandle, what: string): Promise<void> {
  const bytes = await readStateHandle(handle.handle, restore, what);
  const own = backend.keys.range;
  await forEachCanonicalChunk(handle, bytes, own, restore, what, (keyGroup, name, meta, flat) => {
    backend.tableForRestore(name, meta).restoreGroup(keyGroup - own.start, flat, (value) => decodeStateValue(meta.kind, value));
  });
}

async function restoreLists(restore: TaskRestore, target: RestoreTarget, handle: OperatorStateHandle): Promise<void> {
  const what = `operator state of ${target.label}`;
  const bytes = await readStateHandle(handle.handle, restore, what);
  const lists = decodeOperatorLists(handle.states, bytes);
  if (typeof lists === 'string') throw corruptHandle(handle.handle, restore, what, `does not decode: ${lists}`);
  for (const [name, { mode, entries }] of lists) target.lists.restore(name, mode, entries.map(unpackListEntry));
}
