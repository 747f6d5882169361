// Original file: proto/weir/v1/job_service.proto

import type { Long } from '@grpc/proto-loader';

export interface CheckpointInfo {
  'checkpointId'?: (number | string | Long);
  'status'?: (string);
  'triggerTimeMs'?: (number | string | Long);
  'durationMs'?: (number);
  'stateBytes'?: (number | string | Long);
  'alignmentMs'?: (number);
  'syncMs'?: (number);
  'acknowledged'?: (number);
  'totalTasks'?: (number);
  'failureReason'?: (string);
  'externalPath'?: (string);
  'retained'?: (boolean);
  'kind'?: (string);
  'unaligned'?: (boolean);
  'persistedBytes'?: (number | string | Long);
  'checkpointedBytes'?: (number | string | Long);
}

export interface CheckpointInfo__Output {
  'checkpointId': (number);
  'status': (string);
  'triggerTimeMs': (number);
  'durationMs': (number);
  'stateBytes': (number);
  'alignmentMs': (number);
  'syncMs': (number);
  'acknowledged': (number);
  'totalTasks': (number);
  'failureReason': (string);
  'externalPath': (string);
  'retained': (boolean);
  'kind': (string);
  'unaligned': (boolean);
  'persistedBytes': (number);
  'checkpointedBytes': (number);
}
