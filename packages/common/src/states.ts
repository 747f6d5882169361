/** Lifecycle of one subtask (Flink's ExecutionState, trimmed to what Weir uses). */
export const TaskState = {
  DEPLOYING: 'DEPLOYING',
  INITIALIZING: 'INITIALIZING',
  RUNNING: 'RUNNING',
  FINISHED: 'FINISHED',
  CANCELING: 'CANCELING',
  CANCELED: 'CANCELED',
  FAILED: 'FAILED',
} as const;
export type TaskState = (typeof TaskState)[keyof typeof TaskState];

export function isTerminalTaskState(state: TaskState): boolean {
  return state === TaskState.FINISHED || state === TaskState.CANCELED || state === TaskState.FAILED;
}

/** Lifecycle of a job (Flink's JobStatus). */
export const JobStatus = {
  CREATED: 'CREATED',
  RUNNING: 'RUNNING',
  FAILING: 'FAILING',
  RESTARTING: 'RESTARTING',
  CANCELLING: 'CANCELLING',
  FINISHED: 'FINISHED',
  CANCELED: 'CANCELED',
  FAILED: 'FAILED',
  SUSPENDED: 'SUSPENDED',
} as const;
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];

export function isGloballyTerminal(status: JobStatus): boolean {
  return status === JobStatus.FINISHED || status === JobStatus.CANCELED || status === JobStatus.FAILED;
}
