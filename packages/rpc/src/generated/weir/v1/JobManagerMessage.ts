// Original file: proto/weir/v1/task_manager_service.proto

import type { Registered as _weir_v1_Registered, Registered__Output as _weir_v1_Registered__Output } from '../../weir/v1/Registered.ts';
import type { Heartbeat as _weir_v1_Heartbeat, Heartbeat__Output as _weir_v1_Heartbeat__Output } from '../../weir/v1/Heartbeat.ts';
import type { DeployTask as _weir_v1_DeployTask, DeployTask__Output as _weir_v1_DeployTask__Output } from '../../weir/v1/DeployTask.ts';
import type { CancelTask as _weir_v1_CancelTask, CancelTask__Output as _weir_v1_CancelTask__Output } from '../../weir/v1/CancelTask.ts';
import type { TriggerCheckpoint as _weir_v1_TriggerCheckpoint, TriggerCheckpoint__Output as _weir_v1_TriggerCheckpoint__Output } from '../../weir/v1/TriggerCheckpoint.ts';
import type { NotifyCheckpoint as _weir_v1_NotifyCheckpoint, NotifyCheckpoint__Output as _weir_v1_NotifyCheckpoint__Output } from '../../weir/v1/NotifyCheckpoint.ts';
import type { OperatorEvent as _weir_v1_OperatorEvent, OperatorEvent__Output as _weir_v1_OperatorEvent__Output } from '../../weir/v1/OperatorEvent.ts';
import type { Long } from '@grpc/proto-loader';

export interface JobManagerMessage {
  'registered'?: (_weir_v1_Registered | null);
  'heartbeat'?: (_weir_v1_Heartbeat | null);
  'deploy'?: (_weir_v1_DeployTask | null);
  'cancel'?: (_weir_v1_CancelTask | null);
  'triggerCheckpoint'?: (_weir_v1_TriggerCheckpoint | null);
  'notifyCheckpoint'?: (_weir_v1_NotifyCheckpoint | null);
  'operatorEvent'?: (_weir_v1_OperatorEvent | null);
  'leaderEpoch'?: (number | string | Long);
  'kind'?: "registered"|"heartbeat"|"deploy"|"cancel"|"triggerCheckpoint"|"notifyCheckpoint"|"operatorEvent";
}

export interface JobManagerMessage__Output {
  'registered'?: (_weir_v1_Registered__Output | null);
  'heartbeat'?: (_weir_v1_Heartbeat__Output | null);
  'deploy'?: (_weir_v1_DeployTask__Output | null);
  'cancel'?: (_weir_v1_CancelTask__Output | null);
  'triggerCheckpoint'?: (_weir_v1_TriggerCheckpoint__Output | null);
  'notifyCheckpoint'?: (_weir_v1_NotifyCheckpoint__Output | null);
  'operatorEvent'?: (_weir_v1_OperatorEvent__Output | null);
  'leaderEpoch': (number);
  'kind'?: "registered"|"heartbeat"|"deploy"|"cancel"|"triggerCheckpoint"|"notifyCheckpoint"|"operatorEvent";
}
