import { JobStatus } from '@weir/common';
import { JobState } from './job-state.ts';

/** Every subtask finished. Terminal: every event is ignored. */
export class FinishedState extends JobState {
  readonly status = JobStatus.FINISHED;
}
