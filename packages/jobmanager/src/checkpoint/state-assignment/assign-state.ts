import type { JobGraph } from '@weir/api';
import {
  WeirError,
  decodeOperatorLists,
  describeError,
  type CheckpointMetadata,
  type KeyedStateHandle,
  type OperatorMetadata,
  type OperatorStateHandle,
  type OperatorSubtaskState,
  type StreamStateHandle,
  type TaskStateSnapshot,
} from '@weir/common';
import { JobManagerErrorCode } from '../../errors.ts';
import { assignKeyedState } from './keyed-assignment.ts';
import { operatorLabel } from './operator-label.ts';
import { mapOperators } from './operator-mapping.ts';
import { repartitionOperatorState, type ListReader } from './operator-state-repartition.ts';

/** The bytes of a state handle in a file, relative to the directory holding `_metadata`. */
export type HandleBytesReader = (handle: Extract<StreamStateHandle, { kind: 'file' }>) => Promise<Uint8Array>;

export interface StateAssignmentInput {
  readonly metadata: CheckpointMetadata;
  readonly jobGraph: JobGraph;
  /** -n: state of operators the job no longer has is left behind instead of failing. */
  readonly allowNonRestoredState: boolean;
  /** Names the checkpoint or savepoint in errors: "checkpoint 7", "savepoint /sp/savepoint-1a2b3c-x". */
  readonly source: string;
  /** Called only to deal split operator lists out to a changed parallelism. */
  readonly readHandle: HandleBytesReader;
}

/** Who restores what: the TaskStateSnapshot of every subtask of every vertex. */
export interface StateAssignment {
  /** Vertex ID → snapshot per subtask index. */
  readonly tasks: ReadonlyMap<string, readonly TaskStateSnapshot[]>;
  /** Operators of the checkpoint whose state no operator took (allowNonRestoredState). */
  readonly skipped: readonly OperatorMetadata[];
}

/**
 * Maps a checkpoint's state onto the job as it is now, for failover and savepoints alike
 * (Flink's StateAssignmentOperation): by operator ID; keyed state by key group, operator
 * lists round-robin or as a union, in-flight channel data to the same subtask. Operators
 * the checkpoint does not know start empty.
 *
 * Throws UNMAPPED_STATE and RESTORE_MISMATCH (see mapOperators), INVALID_SAVEPOINT when
 * operator state to redistribute does not decode, and the reader's error when it cannot read.
 */
export async function assignState(input: StateAssignmentInput): Promise<StateAssignment> {
  const { metadata, jobGraph } = input;
  const { mapped, skipped } = mapOperators(metadata, jobGraph, input.allowNonRestoredState, input.source);
  const tasks = new Map<string, TaskStateSnapshot[]>();
  for (const vertex of jobGraph.vertices) {
    const perSubtask: Record<string, OperatorSubtaskState>[] = Array.from({ length: vertex.parallelism }, () => ({}));
    for (const operator of vertex.operators) {
      const saved = mapped.get(operator.operatorId)?.saved;
      if (saved === undefined) continue;
      const keyed = assignKeyedState(saved.subtasks.map((s) => s?.keyed ?? []), vertex.maxParallelism, vertex.parallelism);
      const lists = await repartitionOperatorState(saved.subtasks.map((s) => s?.operator ?? []), vertex.parallelism, listReader(input, saved));
      const sameParallelism = saved.parallelism === vertex.parallelism;
      for (let index = 0; index < vertex.parallelism; index++) {
        const state = subtaskState(keyed[index]!, lists[index]!, sameParallelism ? saved.subtasks[index]?.channel : undefined);
        if (state !== undefined) perSubtask[index]![operator.operatorId] = state;
      }
    }
    tasks.set(vertex.id, perSubtask.map((operators) => ({ operators })));
  }
  return { tasks, skipped };
}

/** What subtask `index` of `vertexId` restores; empty for a vertex the assignment does not know. */
export function assignedState(assignment: StateAssignment, vertexId: string, index: number): TaskStateSnapshot {
  return assignment.tasks.get(vertexId)?.[index] ?? { operators: {} };
}

function subtaskState(
  keyed: readonly KeyedStateHandle[],
  operator: readonly OperatorStateHandle[],
  channel: OperatorSubtaskState['channel'] | null | undefined,
): OperatorSubtaskState | undefined {
  if (keyed.length === 0 && operator.length === 0 && (channel === undefined || channel === null)) return undefined;
  return {
    ...(keyed.length > 0 ? { keyed } : {}),
    ...(operator.length > 0 ? { operator } : {}),
    ...(channel !== undefined && channel !== null ? { channel } : {}),
  };
}

function listReader(input: StateAssignmentInput, saved: OperatorMetadata): ListReader {
  return async (handle, oldSubtask) => {
    const where = handle.handle.kind === 'file' ? `file ${handle.handle.path}` : 'inline bytes';
    let bytes: Uint8Array;
    try {
      bytes = handle.handle.kind === 'inline' ? Buffer.from(handle.handle.data, 'base64') : await input.readHandle(handle.handle);
    } catch (err) {
      throw new WeirError(
        err instanceof WeirError ? err.code : JobManagerErrorCode.INVALID_SAVEPOINT,
        `cannot redistribute the operator state of ${operatorLabel(saved)} in ${input.source}: reading its subtask ${oldSubtask}'s ${where} failed: ${describeError(err)}`,
        { cause: err },
      );
    }
    const lists = decodeOperatorLists(handle.states, bytes);
    if (typeof lists === 'string') {
      throw new WeirError(
        JobManagerErrorCode.INVALID_SAVEPOINT,
        `cannot redistribute the operator state of ${operatorLabel(saved)} in ${input.source}: subtask ${oldSubtask}'s ${where}: ${lists}; the state is corrupt`,
      );
    }
    return lists;
  };
}
