import { JobStatus } from '@weir/common';
import type { JobContext } from '../job-context.ts';
import { CanceledState } from './canceled.ts';
import { JobState } from './job-state.ts';
import { RestoringState } from './restoring.ts';

/** Every subtask of the failed attempt has stopped; waits out the delay the restart strategy chose. */
export class RestartingState extends JobState {
  readonly status = JobStatus.RESTARTING;

  override onRestartDelayElapsed(ctx: JobContext): JobState {
    ctx.beginAttempt();
    return new RestoringState();
  }

  override onCancel(): JobState {
    return new CanceledState();
  }
}
