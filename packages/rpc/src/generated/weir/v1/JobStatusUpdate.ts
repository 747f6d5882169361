// Original file: proto/weir/v1/job_service.proto

import type { Long } from '@grpc/proto-loader';

export interface JobStatusUpdate {
  'jobId'?: (string);
  'status'?: (string);
  'failureCause'?: (string);
  'attempt'?: (number);
  'failoverCause'?: (string);
  'failoverCode'?: (string);
  'restartDelayMs'?: (number | string | Long);
  'restartStrategy'?: (string);
}

export interface JobStatusUpdate__Output {
  'jobId': (string);
  'status': (string);
  'failureCause': (string);
  'attempt': (number);
  'failoverCause': (string);
  'failoverCode': (string);
  'restartDelayMs': (number);
  'restartStrategy': (string);
}
