import { WeirError } from '@weir/common';

/** Where a failure happened, when one subtask reported it. */
export interface FailureOrigin {
  readonly vertexId: string;
  readonly subtaskIndex: number;
  readonly taskManagerId: string;
}

/** A job-level failure caused by one subtask: carries the subtask, so the exception history can name the task and its TaskManager. */
export class TaskFailure extends WeirError {
  constructor(
    code: string,
    message: string,
    readonly origin: FailureOrigin,
  ) {
    super(code, message);
  }
}
