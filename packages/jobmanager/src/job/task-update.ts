import { TaskState } from '@weir/common';
import type { TaskStatusUpdate__Output } from '@weir/rpc';

/** A subtask's state change as a TaskManager reported it. */
export interface TaskUpdate {
  readonly taskManagerId: string;
  readonly jobId: string;
  readonly attempt: number;
  readonly vertexId: string;
  readonly subtaskIndex: number;
  readonly state: TaskState;
  readonly failureCause: string;
  readonly failureCode: string;
}

const taskStates = new Set<string>(Object.values(TaskState));

/** The update in `message`, or a sentence saying why it cannot be one. */
export function parseTaskUpdate(taskManagerId: string, message: TaskStatusUpdate__Output): TaskUpdate | string {
  if (message.task === null) return 'the task status update names no task';
  if (!taskStates.has(message.state)) {
    return `task state '${message.state}' is not one of ${[...taskStates].join(', ')}`;
  }
  return {
    taskManagerId,
    jobId: message.task.jobId,
    attempt: message.task.attempt,
    vertexId: message.task.vertexId,
    subtaskIndex: message.task.subtaskIndex,
    state: message.state as TaskState,
    failureCause: message.failureCause,
    failureCode: message.failureCode,
  };
}
