// Original file: proto/weir/v1/job_service.proto

import type { Long } from '@grpc/proto-loader';

export interface JobSummary {
  'jobId'?: (string);
  'name'?: (string);
  'status'?: (string);
  'startTimeMs'?: (number | string | Long);
  'endTimeMs'?: (number | string | Long);
}

export interface JobSummary__Output {
  'jobId': (string);
  'name': (string);
  'status': (string);
  'startTimeMs': (number);
  'endTimeMs': (number);
}
