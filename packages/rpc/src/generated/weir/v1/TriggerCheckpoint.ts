// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';
import type { CheckpointOptions as _weir_v1_CheckpointOptions, CheckpointOptions__Output as _weir_v1_CheckpointOptions__Output } from '../../weir/v1/CheckpointOptions.ts';
import type { Long } from '@grpc/proto-loader';

export interface TriggerCheckpoint {
  'task'?: (_weir_v1_TaskKey | null);
  'checkpointId'?: (number | string | Long);
  'timestampMs'?: (number | string | Long);
  'options'?: (_weir_v1_CheckpointOptions | null);
}

export interface TriggerCheckpoint__Output {
  'task': (_weir_v1_TaskKey__Output | null);
  'checkpointId': (number);
  'timestampMs': (number);
  'options': (_weir_v1_CheckpointOptions__Output | null);
}
