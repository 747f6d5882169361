import { JobStatus } from '@weir/common';
import type { JobContext } from '../job-context.ts';
import { CanceledState } from './canceled.ts';
import { FailedState } from './failed.ts';
import { JobState } from './job-state.ts';
import { RestoringState } from './restoring.ts';
import { InitializingTasksState } from './running.ts';

/**
 * Waiting for enough free slots, first (CREATED) or for a new attempt (RESTARTING): deploys
 * the moment they are there. Both states live in this module because the state classes
 * import each other: a subclass in another module could be evaluated before this base.
 */
export abstract class AwaitingSlotsState extends JobState {
  abstract override readonly status: typeof JobStatus.CREATED | typeof JobStatus.RESTARTING;

  override onSlotsAvailable(ctx: JobContext): JobState {
    return ctx.tryDeploy() ? new InitializingTasksState(this.status) : this;
  }

  override onSlotRequestTimeout(ctx: JobContext): JobState {
    ctx.recordFailure(ctx.slotShortage());
    return new FailedState();
  }

  override onCancel(): JobState {
    return new CanceledState();
  }
}

/** A new job waiting for enough free slots. */
export class CreatedState extends AwaitingSlotsState {
  readonly status = JobStatus.CREATED;

  /** A job a new leader took over starts as a restart does: it looks up the checkpoint to restore first. */
  override onRecover(ctx: JobContext): JobState {
    ctx.beginAttempt();
    return new RestoringState();
  }
}

/** A restarting attempt knows what it restores and waits up to slot.request.timeout for enough free slots. */
export class WaitingForSlotsState extends AwaitingSlotsState {
  readonly status = JobStatus.RESTARTING;
}
