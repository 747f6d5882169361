import { JobStatus, TaskState, type WeirError } from '@weir/common';
import { afterTasksStopped } from '../failover.ts';
import type { JobContext } from '../job-context.ts';
import type { TaskUpdate } from '../task-update.ts';
import { CancellingState } from './cancelling.ts';
import { JobState } from './job-state.ts';

/** A subtask failed and the others were asked to cancel; waits until all of them have ended. */
export class FailingState extends JobState {
  readonly status = JobStatus.FAILING;

  override onTaskUpdate(ctx: JobContext, update: TaskUpdate): JobState {
    const subtask = ctx.applyTaskUpdate(update);
    if (subtask === undefined) return this;
    // Usually a consequence of the root cause; recorded so a failure no restart can fix still decides.
    if (subtask.state === TaskState.FAILED) ctx.recordFailure(ctx.taskFailure(subtask, update));
    return ctx.allTasksTerminal() ? afterTasksStopped(ctx) : this;
  }

  override onTaskManagerLost(ctx: JobContext, taskManagerId: string, cause: WeirError): JobState {
    if (ctx.failTasksOn(taskManagerId, cause).length === 0) return this;
    return ctx.allTasksTerminal() ? afterTasksStopped(ctx) : this;
  }

  override onCancel(): JobState {
    return new CancellingState();
  }
}
