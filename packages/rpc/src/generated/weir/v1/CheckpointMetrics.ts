// Original file: proto/weir/v1/task_manager_service.proto

import type { Long } from '@grpc/proto-loader';

export interface CheckpointMetrics {
  'syncMs'?: (number);
  'asyncMs'?: (number);
  'alignmentMs'?: (number);
  'stateBytes'?: (number | string | Long);
  'unaligned'?: (boolean);
  'persistedBytes'?: (number | string | Long);
  'checkpointedBytes'?: (number | string | Long);
}

export interface CheckpointMetrics__Output {
  'syncMs': (number);
  'asyncMs': (number);
  'alignmentMs': (number);
  'stateBytes': (number);
  'unaligned': (boolean);
  'persistedBytes': (number);
  'checkpointedBytes': (number);
}
