import type { JobGraph } from '@weir/api';
import { TaskState } from '@weir/common';
import type { Execution, SubtaskExecution } from '../job/execution.ts';
import { subtaskName } from '../job/task-name.ts';

/**
 * Who takes part in a checkpoint of an attempt whose tasks may have partly finished (Flink's
 * FLIP-147). The trigger goes to the running tasks with no running producer: the running
 * sources, and running tasks all of whose producers finished (their input ended; they may
 * still wait for a checkpoint taken after their end of data, which an unaligned barrier that
 * overtook the end of data did not give them). Barriers reach every running task downstream
 * (a consumer subtask reads from every producer subtask of its inputs, and alignment ignores
 * channels that delivered end of partition). FINISHED tasks took their final checkpoint
 * already: they are `carried`, their state taken over from the latest completed checkpoint.
 */
export type CheckpointPlan =
  | {
      readonly kind: 'trigger';
      /** The running subtasks without a running producer, which the trigger goes to. */
      readonly triggered: readonly SubtaskExecution[];
      /** Every subtask the checkpoint waits for an acknowledgement from. */
      readonly acknowledging: readonly SubtaskExecution[];
      /** FINISHED subtasks. */
      readonly carried: readonly SubtaskExecution[];
    }
  | { readonly kind: 'skip'; readonly reason: string };

export function planCheckpoint(jobGraph: JobGraph, execution: Execution): CheckpointPlan {
  const blocked = execution.all().filter((s) => s.state !== TaskState.RUNNING && s.state !== TaskState.FINISHED);
  if (blocked.length > 0) {
    const named = blocked.slice(0, 3).map((s) => `${subtaskName(jobGraph, s.vertexId, s.index)} is ${s.state}`);
    const more = blocked.length > 3 ? ` and ${blocked.length - 3} more` : '';
    return { kind: 'skip', reason: `not every task is running or finished (${named.join(', ')}${more})` };
  }
  const reached = new Set<string>();
  const triggered: SubtaskExecution[] = [];
  const acknowledging: SubtaskExecution[] = [];
  const carried: SubtaskExecution[] = [];
  // Vertices are topologically sorted: a vertex's producers are decided before it.
  for (const vertex of jobGraph.vertices) {
    const fed = vertex.inputs.some((edge) => reached.has(edge.sourceVertexId));
    for (let index = 0; index < vertex.parallelism; index++) {
      const subtask = execution.get(vertex.id, index);
      if (subtask === undefined) continue;
      if (subtask.state !== TaskState.RUNNING) {
        carried.push(subtask);
        continue;
      }
      reached.add(vertex.id);
      acknowledging.push(subtask);
      if (!fed) triggered.push(subtask);
    }
  }
  if (acknowledging.length === 0) return { kind: 'skip', reason: 'every task has finished' };
  return { kind: 'trigger', triggered, acknowledging, carried };
}
