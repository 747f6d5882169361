import type { JobVertex } from '@weir/api';
import { encodeRestoreShare, type TaskRestore } from '@weir/rpc';
import type { RestorePoint } from './restore-point.ts';
import { assignedState } from './state-assignment/assign-state.ts';

/** The share of `point` that subtask `index` of `vertex` restores, as DeployTask carries it. */
export function taskRestoreFor(point: RestorePoint, vertex: JobVertex, index: number): TaskRestore {
  return encodeRestoreShare({ checkpointId: point.checkpointId, state: assignedState(point.assignment, vertex.id, index), checkpointPath: point.checkpointPath });
}
