// Original file: proto/weir/v1/task_manager_service.proto

import type { RegisterTaskManager as _weir_v1_RegisterTaskManager, RegisterTaskManager__Output as _weir_v1_RegisterTaskManager__Output } from '../../weir/v1/RegisterTaskManager.ts';
import type { Heartbeat as _weir_v1_Heartbeat, Heartbeat__Output as _weir_v1_Heartbeat__Output } from '../../weir/v1/Heartbeat.ts';
import type { TaskStatusUpdate as _weir_v1_TaskStatusUpdate, TaskStatusUpdate__Output as _weir_v1_TaskStatusUpdate__Output } from '../../weir/v1/TaskStatusUpdate.ts';

export interface TaskManagerMessage {
  'register'?: (_weir_v1_RegisterTaskManager | null);
  'heartbeat'?: (_weir_v1_Heartbeat | null);
  'taskStatus'?: (_weir_v1_TaskStatusUpdate | null);
  'kind'?: "register"|"heartbeat"|"taskStatus";
}

export interface TaskManagerMessage__Output {
  'register'?: (_weir_v1_RegisterTaskManager__Output | null);
  'heartbeat'?: (_weir_v1_Heartbeat__Output | null);
  'taskStatus'?: (_weir_v1_TaskStatusUpdate__Output | null);
  'kind'?: "register"|"heartbeat"|"taskStatus";
}
