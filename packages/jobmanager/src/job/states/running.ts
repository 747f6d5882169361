import { JobStatus, TaskState, type WeirError } from '@weir/common';
import { onFailure } from '../failover.ts';
import type { JobContext } from '../job-context.ts';
import type { SubtaskExecution } from '../execution.ts';
import type { TaskUpdate } from '../task-update.ts';
import { CanceledState } from './canceled.ts';
import { CancellingState } from './cancelling.ts';
import { FinishedState } from './finished.ts';
import { JobState } from './job-state.ts';

/** An attempt whose subtasks are deployed: fails over on the first failure, finishes when every subtask has FINISHED. */
abstract class DeployedState extends JobState {
  /** What a subtask's change that is neither a failure nor the job's end makes of the job. */
  protected abstract changed(ctx: JobContext, subtask: SubtaskExecution): JobState;

  override onTaskUpdate(ctx: JobContext, update: TaskUpdate): JobState {
    const subtask = ctx.applyTaskUpdate(update);
    if (subtask === undefined) return this;
    // Nothing cancels a task of a running job but the task's own trouble: that is a failure too.
    if (subtask.state === TaskState.FAILED || subtask.state === TaskState.CANCELED) {
      return onFailure(ctx, ctx.taskFailure(subtask, update));
    }
    return ctx.allTasksFinished() ? new FinishedState() : this.changed(ctx, subtask);
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

/**
 * Deployed, while subtasks still initialize (open their state backends, restore their state,
 * open their operators): CREATED for the first attempt, RESTARTING for later ones. The job is
 * RUNNING only once every subtask is, so RUNNING means its state is restored, for the user,
 * the dashboard, `weir run` and the checkpoint coordinator alike (Flink reports RUNNING at
 * deployment, while a large restore may take minutes).
 */
export class InitializingTasksState extends DeployedState {
  constructor(readonly status: typeof JobStatus.CREATED | typeof JobStatus.RESTARTING) {
    super();
  }

  protected changed(ctx: JobContext): JobState {
    return ctx.allTasksRunning() ? new RunningState() : this;
  }
}

/** Every subtask runs (or finished). */
export class RunningState extends DeployedState {
  readonly status = JobStatus.RUNNING;

  protected changed(): JobState {
    return this;
  }
}

