// Original file: proto/weir/v1/task_manager_service.proto

import type { RegisterTaskManager as _weir_v1_RegisterTaskManager, RegisterTaskManager__Output as _weir_v1_RegisterTaskManager__Output } from '../../weir/v1/RegisterTaskManager.ts';
import type { Heartbeat as _weir_v1_Heartbeat, Heartbeat__Output as _weir_v1_Heartbeat__Output } from '../../weir/v1/Heartbeat.ts';
import type { TaskStatusUpdate as _weir_v1_TaskStatusUpdate, TaskStatusUpdate__Output as _weir_v1_TaskStatusUpdate__Output } from '../../weir/v1/TaskStatusUpdate.ts';
import type { AcknowledgeCheckpoint as _weir_v1_AcknowledgeCheckpoint, AcknowledgeCheckpoint__Output as _weir_v1_AcknowledgeCheckpoint__Output } from '../../weir/v1/AcknowledgeCheckpoint.ts';
import type { DeclineCheckpoint as _weir_v1_DeclineCheckpoint, DeclineCheckpoint__Output as _weir_v1_DeclineCheckpoint__Output } from '../../weir/v1/DeclineCheckpoint.ts';
import type { AwaitingFinalCheckpoint as _weir_v1_AwaitingFinalCheckpoint, AwaitingFinalCheckpoint__Output as _weir_v1_AwaitingFinalCheckpoint__Output } from '../../weir/v1/AwaitingFinalCheckpoint.ts';
import type { OperatorEvent as _weir_v1_OperatorEvent, OperatorEvent__Output as _weir_v1_OperatorEvent__Output } from '../../weir/v1/OperatorEvent.ts';
import type { MetricsReport as _weir_v1_MetricsReport, MetricsReport__Output as _weir_v1_MetricsReport__Output } from '../../weir/v1/MetricsReport.ts';
import type { PeerUnreachable as _weir_v1_PeerUnreachable, PeerUnreachable__Output as _weir_v1_PeerUnreachable__Output } from '../../weir/v1/PeerUnreachable.ts';

export interface TaskManagerMessage {
  'register'?: (_weir_v1_RegisterTaskManager | null);
  'heartbeat'?: (_weir_v1_Heartbeat | null);
  'taskStatus'?: (_weir_v1_TaskStatusUpdate | null);
  'acknowledgeCheckpoint'?: (_weir_v1_AcknowledgeCheckpoint | null);
  'declineCheckpoint'?: (_weir_v1_DeclineCheckpoint | null);
  'awaitingFinalCheckpoint'?: (_weir_v1_AwaitingFinalCheckpoint | null);
  'operatorEvent'?: (_weir_v1_OperatorEvent | null);
  'metricsReport'?: (_weir_v1_MetricsReport | null);
  'peerUnreachable'?: (_weir_v1_PeerUnreachable | null);
  'kind'?: "register"|"heartbeat"|"taskStatus"|"acknowledgeCheckpoint"|"declineCheckpoint"|"awaitingFinalCheckpoint"|"operatorEvent"|"metricsReport"|"peerUnreachable";
}

export interface TaskManagerMessage__Output {
  'register'?: (_weir_v1_RegisterTaskManager__Output | null);
  'heartbeat'?: (_weir_v1_Heartbeat__Output | null);
  'taskStatus'?: (_weir_v1_TaskStatusUpdate__Output | null);
  'acknowledgeCheckpoint'?: (_weir_v1_AcknowledgeCheckpoint__Output | null);
  'declineCheckpoint'?: (_weir_v1_DeclineCheckpoint__Output | null);
  'awaitingFinalCheckpoint'?: (_weir_v1_AwaitingFinalCheckpoint__Output | null);
  'operatorEvent'?: (_weir_v1_OperatorEvent__Output | null);
  'metricsReport'?: (_weir_v1_MetricsReport__Output | null);
  'peerUnreachable'?: (_weir_v1_PeerUnreachable__Output | null);
  'kind'?: "register"|"heartbeat"|"taskStatus"|"acknowledgeCheckpoint"|"declineCheckpoint"|"awaitingFinalCheckpoint"|"operatorEvent"|"metricsReport"|"peerUnreachable";
}
