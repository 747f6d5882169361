import type { JobGraph } from '@weir/api';
import { TaskState } from '@weir/common';
import type { Execution, SubtaskExecution } from '../job/execution.ts';
import { subtaskName } from '../job/task-name.ts';

/**
 * Who takes part in a checkpoint of an attempt whose tasks may have partly finished (Flink's
 * FLIP-147). Barriers start at the running sources and reach every running task with a
 * running producer (a consumer subtask reads from every producer subtask of its inputs, and
 * alignment ignores channels that delivered end of partition). Any other task ended its input
 * and took its final checkpoint already: it is `carried`, its state taken over from the latest
 * completed checkpoint instead of asked for.
 */
export type CheckpointPlan =
  | {
      readonly kind: 'trigger';
      /** The running source subtasks the trigger goes to. */
      readonly sources: readonly SubtaskExecution[];
      /** Every subtask the checkpoint waits for an acknowledgement from. */
      readonly acknowledging: readonly SubtaskExecution[];
      /** FINISHED subtasks, and running ones all of whose producers finished. */
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
  const sources: SubtaskExecution[] = [];
  const acknowledging: SubtaskExecution[] = [];
  const carried: SubtaskExecution[] = [];
  // Vertices are topologically sorted: a vertex's producers are decided before it.
  for (const vertex of jobGraph.vertices) {
    const isSource = vertex.inputs.length === 0;
    const fed = isSource || vertex.inputs.some((edge) => reached.has(edge.sourceVertexId));
    for (let index = 0; index < vertex.parallelism; index++) {
      const subtask = execution.get(vertex.id, index);
      if (subtask === undefined) continue;
      if (fed && subtask.state === TaskState.RUNNING) {
        reached.add(vertex.id);
        acknowledging.push(subtask);
        if (isSource) sources.push(subtask);
      } else {
        carried.push(subtask);
      }
    }
  }
  if (sources.length === 0) return { kind: 'skip', reason: 'every source has finished; the remaining tasks are finishing' };
  return { kind: 'trigger', sources, acknowledging, carried };
}
