import type { WeirError } from '@weir/common';
import type { JobContext } from './job-context.ts';
import { FailedState } from './states/failed.ts';
import { FailingState } from './states/failing.ts';
import type { JobState } from './states/job-state.ts';

/*
 * What happens after a failure is decided here and nowhere else, so restart strategies have
 * one place to plug in: record the cause (the first one wins), stop the attempt's other
 * subtasks, and end FAILED once all of them have stopped.
 */

export function onFailure(ctx: JobContext, cause: WeirError): JobState {
  ctx.recordFailure(cause);
  ctx.cancelTasks();
  return ctx.allTasksTerminal() ? afterTasksStopped() : new FailingState();
}

export function afterTasksStopped(): JobState {
  return new FailedState();
}
