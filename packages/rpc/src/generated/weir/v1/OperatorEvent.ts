// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';

export interface OperatorEvent {
  'task'?: (_weir_v1_TaskKey | null);
  'operatorId'?: (string);
  'event'?: (Buffer | Uint8Array | string);
}

export interface OperatorEvent__Output {
  'task': (_weir_v1_TaskKey__Output | null);
  'operatorId': (string);
  'event': (Buffer);
}
