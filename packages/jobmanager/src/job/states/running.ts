import { JobStatus, TaskState, type WeirError } from '@weir/common';
import { onFailure } from '../failover.ts';
import type { JobContext } from '../job-context.ts';
import type { TaskUpdate } from '../task-update.ts';
import { CanceledState } from './canceled.ts';
import { CancellingState } from './cancelling.ts';
import { FinishedState } from './finished.ts';
import { JobState } from './job-state.ts';

/** Deployed; finishes when every subtask has FINISHED, fails over on the first failure. */
export class RunningState extends JobState {
  readonly status = JobStatus.RUNNING;

  override onTaskUpdate(ctx: JobContext, update: TaskUpdate): JobState {
    const subtask = ctx.applyTaskUpdate(update);
    if (subtask === undefined) return this;
    // Nothing cancels a task of a running job but the task's own trouble: that is a failure too.
    if (subtask.state === TaskState.FAILED || subtask.state === TaskState.CANCELED) {
      return onFailure(ctx, ctx.taskFailure(subtask, update));
    }
    return ctx.allTasksFinished() ? new FinishedState() : this;
  }

  override onTaskManagerLost(ctx: JobContext, taskManagerId: string, cause: WeirError): JobState {
    return ctx.failTasksOn(taskManagerId, cause).length === 0 ? this : onFailure(ctx, cause);
  }

  override onGlobalFailure(ctx: JobContext, cause: WeirError): JobState {
    return onFailure(ctx, cause);
  }

  override onCancel(ctx: JobContext): JobState {
    ctx.cancelTasks();
    return ctx.allTasksTerminal() ? new CanceledState() : new CancellingState();
  }
}
