// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';

export interface TaskStatusUpdate {
  'task'?: (_weir_v1_TaskKey | null);
  'state'?: (string);
  'failureCause'?: (string);
  'failureCode'?: (string);
}

export interface TaskStatusUpdate__Output {
  'task': (_weir_v1_TaskKey__Output | null);
  'state': (string);
  'failureCause': (string);
  'failureCode': (string);
}
