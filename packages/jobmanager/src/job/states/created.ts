import { JobStatus } from '@weir/common';
import type { JobContext } from '../job-context.ts';
import { CanceledState } from './canceled.ts';
import { FailedState } from './failed.ts';
import { JobState } from './job-state.ts';
import { RunningState } from './running.ts';

/** Waiting for enough free slots; deploys the moment they are there. */
export class CreatedState extends JobState {
  readonly status = JobStatus.CREATED;

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
