import { JobStatus } from '@weir/common';
import type { JobContext } from '../job-context.ts';
import { CanceledState } from './canceled.ts';
import { FailedState } from './failed.ts';
import { JobState } from './job-state.ts';
import { RunningState } from './running.ts';

/** A restarting attempt knows what it restores and waits up to slot.request.timeout for enough free slots. */
export class WaitingForSlotsState extends JobState {
  readonly status = JobStatus.RESTARTING;

  override onSlotsAvailable(ctx: JobContext): JobState {
    return ctx.tryDeploy() ? new RunningState() : this;
  }

  override onSlotRequestTimeout(ctx: JobContext): JobState {
    ctx.recordFailure(ctx.slotShortage());
    return new FailedState();
  }

  override onCancel(): JobState {
    return new CanceledState();
  }
}
