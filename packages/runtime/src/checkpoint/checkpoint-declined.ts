import { WeirError, type CheckpointFailureReason } from '@weir/common';

/** Why the task declines a checkpoint; the code is the CheckpointFailureReason the JobManager gets. */
export class CheckpointDeclinedError extends WeirError {
  constructor(
    readonly reason: CheckpointFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(reason, message, options);
    this.name = 'CheckpointDeclinedError';
  }
}
