import type { CheckpointOptions, KeyedStateHandle, OperatorStateHandle, OperatorSubtaskState, TaskStateSnapshot } from '@weir/common';
import type { OperatorStates } from '../../task/chain-builder.ts';
import type { KeyedSnapshot } from '../../state/keyed-state-backend.ts';
import type { OperatorListSnapshot } from '../../state/operator-state-store.ts';
import type { TaskCheckpointing } from '../types.ts';
import { serializeKeyedState } from './keyed-state-serializer.ts';
import { serializeOperatorState } from './operator-state-serializer.ts';
import { writeStateHandle } from './state-handle-writer.ts';

/** What the synchronous part captured of one operator: copy-on-write views of keyed state, copies of its lists. */
export interface CapturedOperatorState {
  readonly operatorId: string;
  /** "<operator name> (<subtask+1>/<parallelism>)". */
  readonly label: string;
  readonly keyed: KeyedSnapshot | undefined;
  readonly lists: ReadonlyMap<string, OperatorListSnapshot>;
}

/**
 * The synchronous part, after the operators' snapshotState: a consistent view of every
 * operator's state that later writes do not change. Records do not flow while it runs, so a
 * backend may await here (LevelDB flushes its memtable and hard-links its files).
 */
export async function captureTaskState(
  states: readonly OperatorStates[],
  _checkpointId: number,
  _options: CheckpointOptions,
): Promise<CapturedOperatorState[]> {
  return states.map((s) => ({ operatorId: s.operatorId, label: s.label, keyed: s.keyed?.snapshot(), lists: s.lists.snapshot() }));
}

export interface PersistedTaskState {
  readonly state: TaskStateSnapshot;
  readonly stateBytes: number;
}

/**
 * The asynchronous part: serializes what the synchronous part captured and writes it
 * (`<operatorId>-<subtask>-keyed` and `-operator`), operator by operator. Operators without
 * state are left out of the snapshot. Throws CheckpointDeclinedError (too large, storage).
 */
export async function persistTaskState(
  settings: TaskCheckpointing,
  checkpointId: number,
  subtaskIndex: number,
  captured: readonly CapturedOperatorState[],
  _options: CheckpointOptions,
): Promise<PersistedTaskState> {
  const operators: Record<string, OperatorSubtaskState> = {};
  let stateBytes = 0;
  for (const op of captured) {
    const prefix = `${op.operatorId}-${subtaskIndex}`;
    let keyed: KeyedStateHandle | undefined;
    if (op.keyed !== undefined && op.keyed.states.length !== 0) {
      const serialized = await serializeKeyedState(op.keyed);
      if (serialized.bytes.byteLength !== 0) {
        const handle = await writeStateHandle(settings, checkpointId, `${prefix}-keyed`, serialized.bytes, `keyed state of ${op.label}`);
        keyed = { backend: 'heap', keyGroupRange: op.keyed.keyGroupRange, offsets: serialized.offsets, handle, states: serialized.states };
        stateBytes += handle.size;
      }
    }
    let operator: OperatorStateHandle | undefined;
    if (op.lists.size !== 0) {
      const serialized = serializeOperatorState(op.lists);
      const handle = await writeStateHandle(settings, checkpointId, `${prefix}-operator`, serialized.bytes, `operator state of ${op.label}`);
      operator = { handle, states: serialized.states };
      stateBytes += handle.size;
    }
    if (keyed === undefined && operator === undefined) continue;
    operators[op.operatorId] = {
      ...(keyed === undefined ? {} : { keyed: [keyed] }),
      ...(operator === undefined ? {} : { operator: [operator] }),
    };
  }
  return { state: { operators }, stateBytes };
}
