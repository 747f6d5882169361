import type { WeirError } from '@weir/common';
import type { JobContext } from './job-context.ts';
import { FailedState } from './states/failed.ts';
import { FailingState } from './states/failing.ts';
import type { JobState } from './states/job-state.ts';
import { RestartingState } from './states/restarting.ts';

/*
 * What happens after a failure is decided here and nowhere else: record the cause (the first
 * one of the attempt wins), stop the attempt's other subtasks, and once all of them have
 * stopped let the restart strategy choose between a new attempt and FAILED.
 */

export function onFailure(ctx: JobContext, cause: WeirError): JobState {
  ctx.recordFailure(cause);
  ctx.cancelTasks();
  return ctx.allTasksTerminal() ? afterTasksStopped(ctx) : new FailingState();
}

export function afterTasksStopped(ctx: JobContext): JobState {
  return ctx.decideRestart().kind === 'restart' ? new RestartingState() : new FailedState();
}
