// Original file: proto/weir/v1/job_service.proto

import type { JobSummary as _weir_v1_JobSummary, JobSummary__Output as _weir_v1_JobSummary__Output } from '../../weir/v1/JobSummary.ts';

export interface ListJobsResponse {
  'jobs'?: (_weir_v1_JobSummary)[];
}

export interface ListJobsResponse__Output {
  'jobs': (_weir_v1_JobSummary__Output)[];
}
