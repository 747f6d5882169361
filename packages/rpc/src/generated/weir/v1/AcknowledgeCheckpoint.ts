// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';
import type { CheckpointMetrics as _weir_v1_CheckpointMetrics, CheckpointMetrics__Output as _weir_v1_CheckpointMetrics__Output } from '../../weir/v1/CheckpointMetrics.ts';
import type { Long } from '@grpc/proto-loader';

export interface AcknowledgeCheckpoint {
  'task'?: (_weir_v1_TaskKey | null);
  'checkpointId'?: (number | string | Long);
  'state'?: (Buffer | Uint8Array | string);
  'metrics'?: (_weir_v1_CheckpointMetrics | null);
}

export interface AcknowledgeCheckpoint__Output {
  'task': (_weir_v1_TaskKey__Output | null);
  'checkpointId': (number);
  'state': (Buffer);
  'metrics': (_weir_v1_CheckpointMetrics__Output | null);
}
