// Original file: proto/weir/v1/job_service.proto

import type { CheckpointInfo as _weir_v1_CheckpointInfo, CheckpointInfo__Output as _weir_v1_CheckpointInfo__Output } from '../../weir/v1/CheckpointInfo.ts';
import type { Long } from '@grpc/proto-loader';

export interface ListCheckpointsResponse {
  'checkpoints'?: (_weir_v1_CheckpointInfo)[];
  'completed'?: (number);
  'failed'?: (number);
  'restoredFrom'?: (number);
  'restoredBytes'?: (number | string | Long);
  'leftBehindCounted'?: (boolean);
  'leftBehindFiles'?: (number);
  'leftBehindBytes'?: (number | string | Long);
  'leftBehindCountedAtMs'?: (number | string | Long);
}

export interface ListCheckpointsResponse__Output {
  'checkpoints': (_weir_v1_CheckpointInfo__Output)[];
  'completed': (number);
  'failed': (number);
  'restoredFrom': (number);
  'restoredBytes': (number);
  'leftBehindCounted': (boolean);
  'leftBehindFiles': (number);
  'leftBehindBytes': (number);
  'leftBehindCountedAtMs': (number);
}
