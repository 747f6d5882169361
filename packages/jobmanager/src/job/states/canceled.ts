import { JobStatus } from '@weir/common';
import { JobState } from './job-state.ts';

/** Canceled by a client. Terminal: every event is ignored. */
export class CanceledState extends JobState {
  readonly status = JobStatus.CANCELED;
}
