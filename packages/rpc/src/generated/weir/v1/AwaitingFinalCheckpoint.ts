// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';
import type { Long } from '@grpc/proto-loader';

export interface AwaitingFinalCheckpoint {
  'task'?: (_weir_v1_TaskKey | null);
  'lastCheckpointBeforeEnd'?: (number | string | Long);
}

export interface AwaitingFinalCheckpoint__Output {
  'task': (_weir_v1_TaskKey__Output | null);
  'lastCheckpointBeforeEnd': (number);
}
