import type { Addressed } from '@weir/common';
import type { Execution } from '../job/execution.ts';
import type { PendingCheckpoint } from './pending-checkpoint.ts';

/** A checkpoint message as the JobManager received it: the subtask it is about, and the TaskManager whose stream it came on. */
export type FromTaskManager<M> = Addressed<M> & { readonly taskManagerId: string };

/**
 * Whether a message answers `pending` for the attempt now running: from a subtask the checkpoint
 * waits for, of that attempt, on the TaskManager the subtask is deployed to (a message from a
 * lost TaskManager's zombie or from an older attempt is not).
 */
export function isFromCurrentTask(message: FromTaskManager<unknown>, pending: PendingCheckpoint, execution: Execution | undefined): boolean {
  const { task } = message;
  return task.attempt === pending.attempt && isFromDeployedTask(message, execution) && pending.includes(task.vertexId, task.subtaskIndex);
}

/** Whether a message is about a subtask of the running attempt `execution`, from the TaskManager the subtask is deployed to. */
export function isFromDeployedTask(message: FromTaskManager<unknown>, execution: Execution | undefined): boolean {
  const { task } = message;
  return execution?.attempt === task.attempt && execution.get(task.vertexId, task.subtaskIndex)?.taskManagerId === message.taskManagerId;
}
