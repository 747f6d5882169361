// Original file: proto/weir/v1/job_service.proto

import type { Long } from '@grpc/proto-loader';

export interface TriggerCheckpointResponse {
  'checkpointId'?: (number | string | Long);
  'checkpointPath'?: (string);
}

export interface TriggerCheckpointResponse__Output {
  'checkpointId': (number);
  'checkpointPath': (string);
}
