import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AcknowledgeCheckpoint as _weir_v1_AcknowledgeCheckpoint, AcknowledgeCheckpoint__Output as _weir_v1_AcknowledgeCheckpoint__Output } from './weir/v1/AcknowledgeCheckpoint.ts';
import type { AwaitingFinalCheckpoint as _weir_v1_AwaitingFinalCheckpoint, AwaitingFinalCheckpoint__Output as _weir_v1_AwaitingFinalCheckpoint__Output } from './weir/v1/AwaitingFinalCheckpoint.ts';
import type { CancelTask as _weir_v1_CancelTask, CancelTask__Output as _weir_v1_CancelTask__Output } from './weir/v1/CancelTask.ts';
import type { CheckpointMetrics as _weir_v1_CheckpointMetrics, CheckpointMetrics__Output as _weir_v1_CheckpointMetrics__Output } from './weir/v1/CheckpointMetrics.ts';
import type { CheckpointOptions as _weir_v1_CheckpointOptions, CheckpointOptions__Output as _weir_v1_CheckpointOptions__Output } from './weir/v1/CheckpointOptions.ts';
import type { DeclineCheckpoint as _weir_v1_DeclineCheckpoint, DeclineCheckpoint__Output as _weir_v1_DeclineCheckpoint__Output } from './weir/v1/DeclineCheckpoint.ts';
import type { DeployTask as _weir_v1_DeployTask, DeployTask__Output as _weir_v1_DeployTask__Output } from './weir/v1/DeployTask.ts';
import type { FetchBundleRequest as _weir_v1_FetchBundleRequest, FetchBundleRequest__Output as _weir_v1_FetchBundleRequest__Output } from './weir/v1/FetchBundleRequest.ts';
import type { FetchBundleResponse as _weir_v1_FetchBundleResponse, FetchBundleResponse__Output as _weir_v1_FetchBundleResponse__Output } from './weir/v1/FetchBundleResponse.ts';
import type { Heartbeat as _weir_v1_Heartbeat, Heartbeat__Output as _weir_v1_Heartbeat__Output } from './weir/v1/Heartbeat.ts';
import type { InputDeployment as _weir_v1_InputDeployment, InputDeployment__Output as _weir_v1_InputDeployment__Output } from './weir/v1/InputDeployment.ts';
import type { JobDefaults as _weir_v1_JobDefaults, JobDefaults__Output as _weir_v1_JobDefaults__Output } from './weir/v1/JobDefaults.ts';
import type { JobManagerMessage as _weir_v1_JobManagerMessage, JobManagerMessage__Output as _weir_v1_JobManagerMessage__Output } from './weir/v1/JobManagerMessage.ts';
import type { MetricsReport as _weir_v1_MetricsReport, MetricsReport__Output as _weir_v1_MetricsReport__Output } from './weir/v1/MetricsReport.ts';
import type { NotifyCheckpoint as _weir_v1_NotifyCheckpoint, NotifyCheckpoint__Output as _weir_v1_NotifyCheckpoint__Output } from './weir/v1/NotifyCheckpoint.ts';
import type { OperatorEvent as _weir_v1_OperatorEvent, OperatorEvent__Output as _weir_v1_OperatorEvent__Output } from './weir/v1/OperatorEvent.ts';
import type { OperatorMetric as _weir_v1_OperatorMetric, OperatorMetric__Output as _weir_v1_OperatorMetric__Output } from './weir/v1/OperatorMetric.ts';
import type { OperatorMetrics as _weir_v1_OperatorMetrics, OperatorMetrics__Output as _weir_v1_OperatorMetrics__Output } from './weir/v1/OperatorMetrics.ts';
import type { PeerUnreachable as _weir_v1_PeerUnreachable, PeerUnreachable__Output as _weir_v1_PeerUnreachable__Output } from './weir/v1/PeerUnreachable.ts';
import type { ProcessMetrics as _weir_v1_ProcessMetrics, ProcessMetrics__Output as _weir_v1_ProcessMetrics__Output } from './weir/v1/ProcessMetrics.ts';
import type { ProducerLocation as _weir_v1_ProducerLocation, ProducerLocation__Output as _weir_v1_ProducerLocation__Output } from './weir/v1/ProducerLocation.ts';
import type { RegisterTaskManager as _weir_v1_RegisterTaskManager, RegisterTaskManager__Output as _weir_v1_RegisterTaskManager__Output } from './weir/v1/RegisterTaskManager.ts';
import type { Registered as _weir_v1_Registered, Registered__Output as _weir_v1_Registered__Output } from './weir/v1/Registered.ts';
import type { SubtaskMetrics as _weir_v1_SubtaskMetrics, SubtaskMetrics__Output as _weir_v1_SubtaskMetrics__Output } from './weir/v1/SubtaskMetrics.ts';
import type { TaskCheckpointing as _weir_v1_TaskCheckpointing, TaskCheckpointing__Output as _weir_v1_TaskCheckpointing__Output } from './weir/v1/TaskCheckpointing.ts';
import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from './weir/v1/TaskKey.ts';
import type { TaskManagerMessage as _weir_v1_TaskManagerMessage, TaskManagerMessage__Output as _weir_v1_TaskManagerMessage__Output } from './weir/v1/TaskManagerMessage.ts';
import type { TaskManagerServiceClient as _weir_v1_TaskManagerServiceClient, TaskManagerServiceDefinition as _weir_v1_TaskManagerServiceDefinition } from './weir/v1/TaskManagerService.ts';
import type { TaskRestore as _weir_v1_TaskRestore, TaskRestore__Output as _weir_v1_TaskRestore__Output } from './weir/v1/TaskRestore.ts';
import type { TaskStatusUpdate as _weir_v1_TaskStatusUpdate, TaskStatusUpdate__Output as _weir_v1_TaskStatusUpdate__Output } from './weir/v1/TaskStatusUpdate.ts';
import type { TriggerCheckpoint as _weir_v1_TriggerCheckpoint, TriggerCheckpoint__Output as _weir_v1_TriggerCheckpoint__Output } from './weir/v1/TriggerCheckpoint.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  weir: {
    v1: {
      AcknowledgeCheckpoint: MessageTypeDefinition<_weir_v1_AcknowledgeCheckpoint, _weir_v1_AcknowledgeCheckpoint__Output>
      AwaitingFinalCheckpoint: MessageTypeDefinition<_weir_v1_AwaitingFinalCheckpoint, _weir_v1_AwaitingFinalCheckpoint__Output>
      CancelTask: MessageTypeDefinition<_weir_v1_CancelTask, _weir_v1_CancelTask__Output>
      CheckpointMetrics: MessageTypeDefinition<_weir_v1_CheckpointMetrics, _weir_v1_CheckpointMetrics__Output>
      CheckpointOptions: MessageTypeDefinition<_weir_v1_CheckpointOptions, _weir_v1_CheckpointOptions__Output>
      DeclineCheckpoint: MessageTypeDefinition<_weir_v1_DeclineCheckpoint, _weir_v1_DeclineCheckpoint__Output>
      DeployTask: MessageTypeDefinition<_weir_v1_DeployTask, _weir_v1_DeployTask__Output>
      FetchBundleRequest: MessageTypeDefinition<_weir_v1_FetchBundleRequest, _weir_v1_FetchBundleRequest__Output>
      FetchBundleResponse: MessageTypeDefinition<_weir_v1_FetchBundleResponse, _weir_v1_FetchBundleResponse__Output>
      Heartbeat: MessageTypeDefinition<_weir_v1_Heartbeat, _weir_v1_Heartbeat__Output>
      InputDeployment: MessageTypeDefinition<_weir_v1_InputDeployment, _weir_v1_InputDeployment__Output>
      JobDefaults: MessageTypeDefinition<_weir_v1_JobDefaults, _weir_v1_JobDefaults__Output>
      JobManagerMessage: MessageTypeDefinition<_weir_v1_JobManagerMessage, _weir_v1_JobManagerMessage__Output>
      MetricsReport: MessageTypeDefinition<_weir_v1_MetricsReport, _weir_v1_MetricsReport__Output>
      NotifyCheckpoint: MessageTypeDefinition<_weir_v1_NotifyCheckpoint, _weir_v1_NotifyCheckpoint__Output>
      OperatorEvent: MessageTypeDefinition<_weir_v1_OperatorEvent, _weir_v1_OperatorEvent__Output>
      OperatorMetric: MessageTypeDefinition<_weir_v1_OperatorMetric, _weir_v1_OperatorMetric__Output>
      OperatorMetrics: MessageTypeDefinition<_weir_v1_OperatorMetrics, _weir_v1_OperatorMetrics__Output>
      PeerUnreachable: MessageTypeDefinition<_weir_v1_PeerUnreachable, _weir_v1_PeerUnreachable__Output>
      ProcessMetrics: MessageTypeDefinition<_weir_v1_ProcessMetrics, _weir_v1_ProcessMetrics__Output>
      ProducerLocation: MessageTypeDefinition<_weir_v1_ProducerLocation, _weir_v1_ProducerLocation__Output>
      RegisterTaskManager: MessageTypeDefinition<_weir_v1_RegisterTaskManager, _weir_v1_RegisterTaskManager__Output>
      Registered: MessageTypeDefinition<_weir_v1_Registered, _weir_v1_Registered__Output>
      SubtaskMetrics: MessageTypeDefinition<_weir_v1_SubtaskMetrics, _weir_v1_SubtaskMetrics__Output>
      TaskCheckpointing: MessageTypeDefinition<_weir_v1_TaskCheckpointing, _weir_v1_TaskCheckpointing__Output>
      TaskKey: MessageTypeDefinition<_weir_v1_TaskKey, _weir_v1_TaskKey__Output>
      TaskManagerMessage: MessageTypeDefinition<_weir_v1_TaskManagerMessage, _weir_v1_TaskManagerMessage__Output>
      TaskManagerService: SubtypeConstructor<typeof grpc.Client, _weir_v1_TaskManagerServiceClient> & { service: _weir_v1_TaskManagerServiceDefinition }
      TaskRestore: MessageTypeDefinition<_weir_v1_TaskRestore, _weir_v1_TaskRestore__Output>
      TaskStatusUpdate: MessageTypeDefinition<_weir_v1_TaskStatusUpdate, _weir_v1_TaskStatusUpdate__Output>
      TriggerCheckpoint: MessageTypeDefinition<_weir_v1_TriggerCheckpoint, _weir_v1_TriggerCheckpoint__Output>
    }
  }
}

