import type { JobStatus, WeirError } from '@weir/common';
import type { RestoreOutcome } from '../../checkpoint/restore-point.ts';
import type { JobContext } from '../job-context.ts';
import type { TaskUpdate } from '../task-update.ts';

/**
 * One state of a job. Each event returns the next state (itself when nothing changes); the
 * defaults ignore the event, so a state only overrides what it reacts to.
 */
export abstract class JobState {
  abstract readonly status: JobStatus;

  onSlotsAvailable(_ctx: JobContext): JobState {
    return this;
  }

  onSlotRequestTimeout(_ctx: JobContext): JobState {
    return this;
  }

  onTaskUpdate(_ctx: JobContext, _update: TaskUpdate): JobState {
    return this;
  }

  onTaskManagerLost(_ctx: JobContext, _taskManagerId: string, _cause: WeirError): JobState {
    return this;
  }

  onCancel(_ctx: JobContext): JobState {
    return this;
  }

  /** The job as a whole must fail over (too many failed checkpoints), whatever its tasks do. */
  onGlobalFailure(_ctx: JobContext, _cause: WeirError): JobState {
    return this;
  }

  onRestartDelayElapsed(_ctx: JobContext): JobState {
    return this;
  }

  /** A new leader took the job over before it was ever deployed here. */
  onRecover(_ctx: JobContext): JobState {
    return this;
  }

  /** What the current attempt restores was looked up. */
  onRestoreLoaded(_ctx: JobContext, _outcome: RestoreOutcome): JobState {
    return this;
  }
}
