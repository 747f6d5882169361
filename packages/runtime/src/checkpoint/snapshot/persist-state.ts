import { encodeOperatorLists, levelHandleFiles, type CheckpointOptions, type OperatorList, type KeyedStateHandle, type OperatorStateHandle, type OperatorSubtaskState, type TaskStateSnapshot } from '@weir/common';
import type { OperatorStates } from '../../task/chain-builder.ts';
import type { CapturedKeyedState } from '../../state/keyed-state-backend.ts';
import type { OperatorListSnapshot } from '../../state/operator-state-store.ts';
import type { TaskCheckpointing } from '../types.ts';
import { serializeKeyedState } from './keyed-state-serializer.ts';
import { serializeLevelCanonical } from './level-canonical-serializer.ts';
import { writeLevelChangelog } from './level-changelog-writer.ts';
import { writeLevelFiles } from './level-files-writer.ts';
import { snapshotTarget, type SnapshotTarget } from './snapshot-target.ts';
import { writeStateHandle } from './state-handle-writer.ts';
import { packListEntry } from '../state-codec.ts';

/** What the synchronous part captured of one operator: a view of its keyed state, copies of its lists. */
export interface CapturedOperatorState {
  readonly operatorId: string;
  /** "<operator name> (<subtask+1>/<parallelism>)". */
  readonly label: string;
  readonly keyed: CapturedKeyedState | undefined;
  readonly lists: ReadonlyMap<string, OperatorListSnapshot>;
}

/**
 * The synchronous part, after the operators' snapshotState: a consistent view of every
 * operator's state that later writes do not change. Records do not flow while it runs, so a
 * backend may await here (LevelDB takes its write cache's dirty entries, and writes and links
 * them after, while records flow).
 */
export async function captureTaskState(states: readonly OperatorStates[], checkpointId: number, options: CheckpointOptions): Promise<CapturedOperatorState[]> {
  const captured: CapturedOperatorState[] = [];
  for (const s of states) {
    const keyed = await s.keyed?.capture(checkpointId, options);
    captured.push({ operatorId: s.operatorId, label: s.label, keyed, lists: s.lists.snapshot() });
  }
  return captured;
}

export interface PersistedTaskState {
  readonly state: TaskStateSnapshot;
  /** Full size: every byte the snapshot's handles refer to (an incremental LevelDB checkpoint's shared files included). */
  readonly stateBytes: number;
  /** Bytes this snapshot wrote: an incremental LevelDB checkpoint counts only what it uploaded. */
  readonly checkpointedBytes: number;
}

/**
 * The asynchronous part: serializes what the synchronous part captured and writes it
 * (`<operatorId>-<subtask>-keyed`, `-operator`, `-level/`), operator by operator, to the
 * checkpoint's directory or the savepoint's (snapshot-target.ts). Savepoints hold keyed state
 * in the canonical format whatever the backend. Operators without state are left out.
 * Throws CheckpointDeclinedError (too large, storage).
 */
export async function persistTaskState(
  settings: TaskCheckpointing,
  checkpointId: number,
  subtaskIndex: number,
  captured: readonly CapturedOperatorState[],
  options: CheckpointOptions,
): Promise<PersistedTaskState> {
  const target = snapshotTarget(settings, checkpointId, options);
  const operators: Record<string, OperatorSubtaskState> = {};
  let stateBytes = 0;
  let checkpointedBytes = 0;
  for (const op of captured) {
    const prefix = `${op.operatorId}-${subtaskIndex}`;
    let keyed: KeyedStateHandle | undefined;
    if (op.keyed !== undefined) {
      const written = await persistKeyed(settings, checkpointId, target, prefix, op.keyed, `keyed state of ${op.label}`);
      keyed = written?.handle;
      stateBytes += written?.fullBytes ?? 0;
      checkpointedBytes += written?.bytes ?? 0;
    }
    let operator: OperatorStateHandle | undefined;
    if (op.lists.size !== 0) {
      const serialized = encodeOperatorLists(packedLists(op.lists));
      const handle = await writeStateHandle(settings, checkpointId, `${prefix}-operator`, serialized.bytes, `operator state of ${op.label}`, target);
      operator = { handle, states: serialized.states };
      stateBytes += handle.size;
      checkpointedBytes += handle.size;
    }
    if (keyed === undefined && operator === undefined) continue;
    operators[op.operatorId] = {
      ...(keyed === undefined ? {} : { keyed: [keyed] }),
      ...(operator === undefined ? {} : { operator: [operator] }),
    };
  }
  return { state: { operators }, stateBytes, checkpointedBytes };
}

async function persistKeyed(
  settings: TaskCheckpointing,
  checkpointId: number,
  target: SnapshotTarget,
  prefix: string,
  keyed: CapturedKeyedState,
  what: string,
): Promise<{ handle: KeyedStateHandle; bytes: number; fullBytes: number } | undefined> {
  switch (keyed.kind) {
    case 'heap': {
      if (keyed.states.length === 0) return undefined;
      const serialized = await serializeKeyedState(keyed);
      if (serialized.bytes.byteLength === 0) return undefined;
      const handle = await writeStateHandle(settings, checkpointId, `${prefix}-keyed`, serialized.bytes, what, target);
      return { handle: { backend: 'heap', keyGroupRange: keyed.keyGroupRange, offsets: serialized.offsets, handle, states: serialized.states }, bytes: handle.size, fullBytes: handle.size };
    }
    case 'level-canonical': {
      const { bytes, offsets } = await serializeLevelCanonical(keyed);
      if (Object.keys(keyed.states).length === 0 || bytes.byteLength === 0) return undefined;
      const handle = await writeStateHandle(settings, checkpointId, `${prefix}-keyed`, bytes, what, target);
      return { handle: { backend: 'heap', keyGroupRange: keyed.keyGroupRange, offsets, handle, states: keyed.states }, bytes: handle.size, fullBytes: handle.size };
    }
    case 'level-files':
    case 'level-changelog': {
      const written = keyed.kind === 'level-files' ? await writeLevelFiles(settings, target, prefix, keyed, what) : await writeLevelChangelog(settings, target, prefix, keyed, what);
      return { handle: written.handle, bytes: written.uploadedBytes, fullBytes: levelHandleFiles(written.handle).reduce((sum, f) => sum + f.size, 0) };
    }
  }
}

/** Each entry in the state codec's bytes (see @weir/common's PackedEntry). */
function packedLists(lists: ReadonlyMap<string, OperatorList>): Map<string, OperatorList> {
  const packed = new Map<string, OperatorList>();
  for (const [name, { mode, entries }] of lists) packed.set(name, { mode, entries: entries.map(packListEntry) });
  return packed;
}
