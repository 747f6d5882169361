import type { JobStatus, WeirError } from '@weir/common';
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
}
