// Original file: proto/weir/v1/job_service.proto

import type { Long } from '@grpc/proto-loader';

export interface TriggerSavepointResponse {
  'savepointPath'?: (string);
  'checkpointId'?: (number | string | Long);
}

export interface TriggerSavepointResponse__Output {
  'savepointPath': (string);
  'checkpointId': (number);
}
