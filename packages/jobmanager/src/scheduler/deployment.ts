import type { DeployTask, TaskCheckpointing } from '@weir/rpc';
import { taskRestoreFor } from '../checkpoint/task-restore.ts';
import type { RestorePoint } from '../checkpoint/restore-point.ts';
import type { JobSpec } from '../job/job-spec.ts';
import type { Slot } from './slot-pool.ts';

/** One DeployTask and the TaskManager whose stream it goes to. */
export interface Deployment {
  readonly taskManagerId: string;
  readonly vertexId: string;
  readonly subtaskIndex: number;
  readonly message: DeployTask;
}

/** What an attempt's tasks get besides the graph: how to checkpoint and what to restore. */
export interface AttemptState {
  /** Set when the job takes checkpoints. */
  readonly checkpointing?: TaskCheckpointing;
  /** Set when the attempt starts from a checkpoint. */
  readonly restore?: RestorePoint;
}

/**
 * The DeployTask of every subtask, vertices in topological order: subtask i of each vertex
 * goes to the job's slot i (slot sharing), and each input edge lists where every subtask of
 * its source vertex runs.
 */
export function planDeployments(spec: JobSpec, attempt: number, slots: readonly Slot[], state: AttemptState = {}): Deployment[] {
  const parallelismOf = new Map(spec.jobGraph.vertices.map((v) => [v.id, v.parallelism]));
  const deployments: Deployment[] = [];
  for (const vertex of spec.jobGraph.vertices) {
    const inputs = vertex.inputs.map((edge) => ({
      sourceVertexId: edge.sourceVertexId,
      producers: slots.slice(0, parallelismOf.get(edge.sourceVertexId)).map((slot, subtaskIndex) => ({
        subtaskIndex,
        taskManagerId: slot.taskManagerId,
        dataAddress: slot.dataAddress,
      })),
    }));
    for (let subtaskIndex = 0; subtaskIndex < vertex.parallelism; subtaskIndex++) {
      const slot = slots[subtaskIndex]!;
      const message: DeployTask = {
        task: { jobId: spec.jobId, attempt, vertexId: vertex.id, subtaskIndex },
        jobName: spec.jobGraph.jobName,
        bundleHash: spec.bundleHash,
        entryName: spec.entryName,
        args: [...spec.args],
        defaults: { ...spec.defaults },
        parallelism: vertex.parallelism,
        inputs,
        keyedStateBackend: spec.settings.stateBackend,
      };
      if (state.checkpointing !== undefined) message.checkpointing = state.checkpointing;
      if (state.restore !== undefined) message.restore = taskRestoreFor(state.restore, vertex, subtaskIndex);
      deployments.push({ taskManagerId: slot.taskManagerId, vertexId: vertex.id, subtaskIndex, message });
    }
  }
  return deployments;
}
