import { JobStatus } from '@weir/common';
import { JobState } from './job-state.ts';

/** The job failed; the context holds the root cause. Terminal: every event is ignored. */
export class FailedState extends JobState {
  readonly status = JobStatus.FAILED;
}
