import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CancelCheckpointMarker as _weir_v1_CancelCheckpointMarker, CancelCheckpointMarker__Output as _weir_v1_CancelCheckpointMarker__Output } from './weir/v1/CancelCheckpointMarker.ts';
import type { CheckpointBarrier as _weir_v1_CheckpointBarrier, CheckpointBarrier__Output as _weir_v1_CheckpointBarrier__Output } from './weir/v1/CheckpointBarrier.ts';
import type { CheckpointOptions as _weir_v1_CheckpointOptions, CheckpointOptions__Output as _weir_v1_CheckpointOptions__Output } from './weir/v1/CheckpointOptions.ts';
import type { ConsumerMessage as _weir_v1_ConsumerMessage, ConsumerMessage__Output as _weir_v1_ConsumerMessage__Output } from './weir/v1/ConsumerMessage.ts';
import type { Credit as _weir_v1_Credit, Credit__Output as _weir_v1_Credit__Output } from './weir/v1/Credit.ts';
import type { DataExchangeClient as _weir_v1_DataExchangeClient, DataExchangeDefinition as _weir_v1_DataExchangeDefinition } from './weir/v1/DataExchange.ts';
import type { EndOfData as _weir_v1_EndOfData, EndOfData__Output as _weir_v1_EndOfData__Output } from './weir/v1/EndOfData.ts';
import type { EndOfPartition as _weir_v1_EndOfPartition, EndOfPartition__Output as _weir_v1_EndOfPartition__Output } from './weir/v1/EndOfPartition.ts';
import type { ProducerMessage as _weir_v1_ProducerMessage, ProducerMessage__Output as _weir_v1_ProducerMessage__Output } from './weir/v1/ProducerMessage.ts';
import type { RecordBuffer as _weir_v1_RecordBuffer, RecordBuffer__Output as _weir_v1_RecordBuffer__Output } from './weir/v1/RecordBuffer.ts';
import type { SubscribeRequest as _weir_v1_SubscribeRequest, SubscribeRequest__Output as _weir_v1_SubscribeRequest__Output } from './weir/v1/SubscribeRequest.ts';
import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from './weir/v1/TaskKey.ts';
import type { Unsubscribe as _weir_v1_Unsubscribe, Unsubscribe__Output as _weir_v1_Unsubscribe__Output } from './weir/v1/Unsubscribe.ts';
import type { Watermark as _weir_v1_Watermark, Watermark__Output as _weir_v1_Watermark__Output } from './weir/v1/Watermark.ts';
import type { WatermarkStatus as _weir_v1_WatermarkStatus, WatermarkStatus__Output as _weir_v1_WatermarkStatus__Output } from './weir/v1/WatermarkStatus.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  weir: {
    v1: {
      CancelCheckpointMarker: MessageTypeDefinition<_weir_v1_CancelCheckpointMarker, _weir_v1_CancelCheckpointMarker__Output>
      CheckpointBarrier: MessageTypeDefinition<_weir_v1_CheckpointBarrier, _weir_v1_CheckpointBarrier__Output>
      CheckpointOptions: MessageTypeDefinition<_weir_v1_CheckpointOptions, _weir_v1_CheckpointOptions__Output>
      ConsumerMessage: MessageTypeDefinition<_weir_v1_ConsumerMessage, _weir_v1_ConsumerMessage__Output>
      Credit: MessageTypeDefinition<_weir_v1_Credit, _weir_v1_Credit__Output>
      DataExchange: SubtypeConstructor<typeof grpc.Client, _weir_v1_DataExchangeClient> & { service: _weir_v1_DataExchangeDefinition }
      EndOfData: MessageTypeDefinition<_weir_v1_EndOfData, _weir_v1_EndOfData__Output>
      EndOfPartition: MessageTypeDefinition<_weir_v1_EndOfPartition, _weir_v1_EndOfPartition__Output>
      ProducerMessage: MessageTypeDefinition<_weir_v1_ProducerMessage, _weir_v1_ProducerMessage__Output>
      RecordBuffer: MessageTypeDefinition<_weir_v1_RecordBuffer, _weir_v1_RecordBuffer__Output>
      SubscribeRequest: MessageTypeDefinition<_weir_v1_SubscribeRequest, _weir_v1_SubscribeRequest__Output>
      TaskKey: MessageTypeDefinition<_weir_v1_TaskKey, _weir_v1_TaskKey__Output>
      Unsubscribe: MessageTypeDefinition<_weir_v1_Unsubscribe, _weir_v1_Unsubscribe__Output>
      Watermark: MessageTypeDefinition<_weir_v1_Watermark, _weir_v1_Watermark__Output>
      WatermarkStatus: MessageTypeDefinition<_weir_v1_WatermarkStatus, _weir_v1_WatermarkStatus__Output>
    }
  }
}

