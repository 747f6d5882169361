import type { JobGraph, JobVertex } from '@weir/api';
import type { CheckpointMetadata, OperatorSubtaskState, TaskStateSnapshot } from '@weir/common';
import type { TaskRestore } from '@weir/rpc';
import type { RestorePoint } from './restore-point.ts';

/**
 * Why `metadata` cannot be restored into `jobGraph` as it is: an operator whose parallelism or
 * max parallelism changed. Undefined when it fits. Operators the checkpoint does not know
 * start empty.
 */
export function restoreMismatch(metadata: CheckpointMetadata, jobGraph: JobGraph): string | undefined {
  const byId = new Map(metadata.operators.map((op) => [op.operatorId, op]));
  for (const vertex of jobGraph.vertices) {
    for (const operator of vertex.operators) {
      const saved = byId.get(operator.operatorId);
      if (saved === undefined) continue;
      if (saved.parallelism !== vertex.parallelism) {
        return `operator ${operator.name} (${operator.operatorId}) had parallelism ${saved.parallelism} and now has ${vertex.parallelism}; restoring at another parallelism is not supported yet, run the job with parallelism ${saved.parallelism}`;
      }
      if (saved.maxParallelism !== vertex.maxParallelism) {
        return `operator ${operator.name} (${operator.operatorId}) had max parallelism ${saved.maxParallelism} and now has ${vertex.maxParallelism}; the max parallelism of a stateful job must not change`;
      }
    }
  }
  return undefined;
}

/** The share of `point` that subtask `index` of `vertex` restores: its state per operator of the chain. */
export function taskRestoreFor(point: RestorePoint, vertex: JobVertex, index: number): TaskRestore {
  const byId = new Map(point.metadata.operators.map((op) => [op.operatorId, op]));
  const operators: Record<string, OperatorSubtaskState> = {};
  for (const operator of vertex.operators) {
    const state = byId.get(operator.operatorId)?.subtasks[index];
    if (state !== undefined && state !== null) operators[operator.operatorId] = state;
  }
  const snapshot: TaskStateSnapshot = { operators };
  return { checkpointId: point.checkpointId, state: Buffer.from(JSON.stringify(snapshot), 'utf8'), checkpointPath: point.checkpointPath };
}
