import { TaskState } from '@weir/common';
import type { SubtaskExecution } from '../../job/execution.ts';

/** Subtasks by state, with every state present (Flink's `tasks` / `status-counts`), plus the total. */
export type TaskCounts = Record<Lowercase<TaskState> | 'created' | 'total', number>;

export function countTasks(subtasks: readonly SubtaskExecution[], expectedTotal: number): TaskCounts {
  const counts: TaskCounts = { total: expectedTotal, created: 0, deploying: 0, initializing: 0, running: 0, finished: 0, canceling: 0, canceled: 0, failed: 0 };
  for (const subtask of subtasks) counts[subtask.state.toLowerCase() as Lowercase<TaskState>]++;
  // Subtasks not deployed yet (a job waiting for slots) are CREATED, as in Flink.
  counts.created = expectedTotal - subtasks.length;
  return counts;
}

/**
 * One state for a vertex's subtasks, by Flink's rule (ExecutionJobVertex's aggregate state):
 * all FINISHED is FINISHED; else any CANCELING, CANCELED, FAILED, RUNNING (or some FINISHED),
 * INITIALIZING, DEPLOYING wins in that order; nothing deployed is CREATED.
 */
export function aggregateState(counts: TaskCounts): string {
  if (counts.total > 0 && counts.finished === counts.total) return TaskState.FINISHED;
  if (counts.canceling > 0) return TaskState.CANCELING;
  if (counts.canceled > 0) return TaskState.CANCELED;
  if (counts.failed > 0) return TaskState.FAILED;
  if (counts.running > 0 || counts.finished > 0) return TaskState.RUNNING;
  if (counts.initializing > 0) return TaskState.INITIALIZING;
  if (counts.deploying > 0) return TaskState.DEPLOYING;
  return 'CREATED';
}
