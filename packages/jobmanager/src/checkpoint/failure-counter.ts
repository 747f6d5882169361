import { CheckpointFailureReason, WeirError } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/** Failures that count: the job's own checkpoints going wrong, not the job ending or a newer checkpoint overtaking. */
const COUNTED = new Set<CheckpointFailureReason>([
  CheckpointFailureReason.EXPIRED,
  CheckpointFailureReason.DECLINED,
  CheckpointFailureReason.STORAGE_FAILURE,
  CheckpointFailureReason.STATE_TOO_LARGE,
  CheckpointFailureReason.SNAPSHOT_FAILED,
]);

/** Consecutive failed checkpoints against execution.checkpointing.tolerable-failed-checkpoints. */
export class CheckpointFailureCounter {
  #consecutive = 0;

  constructor(private readonly tolerable: number) {}

  /** A checkpoint completed, or a new attempt starts. */
  reset(): void {
    this.#consecutive = 0;
  }

  /** Counts a failure; returns the cause to fail the job over with once more than the tolerable number failed in a row. */
  failed(reason: CheckpointFailureReason, message: string): WeirError | undefined {
    if (!COUNTED.has(reason)) return undefined;
    this.#consecutive++;
    if (this.#consecutive <= this.tolerable) return undefined;
    return new WeirError(
      JobManagerErrorCode.CHECKPOINT_FAILURE_THRESHOLD,
      `exceeded the tolerable checkpoint failure threshold (${this.tolerable}): ${reason}: ${message}`,
    );
  }
}
