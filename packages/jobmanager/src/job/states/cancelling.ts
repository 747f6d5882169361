import { JobStatus, type WeirError } from '@weir/common';
import type { JobContext } from '../job-context.ts';
import type { TaskUpdate } from '../task-update.ts';
import { CanceledState } from './canceled.ts';
import { JobState } from './job-state.ts';

/** Every subtask was asked to cancel; CANCELED once all have ended, however they ended. */
export class CancellingState extends JobState {
  readonly status = JobStatus.CANCELLING;

  override onTaskUpdate(ctx: JobContext, update: TaskUpdate): JobState {
    if (ctx.applyTaskUpdate(update) === undefined) return this;
    return ctx.allTasksTerminal() ? new CanceledState() : this;
  }

  override onTaskManagerLost(ctx: JobContext, taskManagerId: string, cause: WeirError): JobState {
    if (ctx.failTasksOn(taskManagerId, cause).length === 0) return this;
    return ctx.allTasksTerminal() ? new CanceledState() : this;
  }
}
