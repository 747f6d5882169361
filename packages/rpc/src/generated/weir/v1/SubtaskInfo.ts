// Original file: proto/weir/v1/job_service.proto

import type { Long } from '@grpc/proto-loader';

export interface SubtaskInfo {
  'index'?: (number);
  'state'?: (string);
  'taskManagerId'?: (string);
  'failureCause'?: (string);
  'initializationMs'?: (number | string | Long);
}

export interface SubtaskInfo__Output {
  'index': (number);
  'state': (string);
  'taskManagerId': (string);
  'failureCause': (string);
  'initializationMs': (number);
}
