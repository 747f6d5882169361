import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ConsumerMessage as _weir_v1_ConsumerMessage, ConsumerMessage__Output as _weir_v1_ConsumerMessage__Output } from './weir/v1/ConsumerMessage.ts';
import type { Credit as _weir_v1_Credit, Credit__Output as _weir_v1_Credit__Output } from './weir/v1/Credit.ts';
import type { DataExchangeClient as _weir_v1_DataExchangeClient, DataExchangeDefinition as _weir_v1_DataExchangeDefinition } from './weir/v1/DataExchange.ts';
import type { EndOfPartition as _weir_v1_EndOfPartition, EndOfPartition__Output as _weir_v1_EndOfPartition__Output } from './weir/v1/EndOfPartition.ts';
import type { ProducerMessage as _weir_v1_ProducerMessage, ProducerMessage__Output as _weir_v1_ProducerMessage__Output } from './weir/v1/ProducerMessage.ts';
import type { RecordBuffer as _weir_v1_RecordBuffer, RecordBuffer__Output as _weir_v1_RecordBuffer__Output } from './weir/v1/RecordBuffer.ts';
import type { SubscribeRequest as _weir_v1_SubscribeRequest, SubscribeRequest__Output as _weir_v1_SubscribeRequest__Output } from './weir/v1/SubscribeRequest.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  weir: {
    v1: {
      ConsumerMessage: MessageTypeDefinition<_weir_v1_ConsumerMessage, _weir_v1_ConsumerMessage__Output>
      Credit: MessageTypeDefinition<_weir_v1_Credit, _weir_v1_Credit__Output>
      DataExchange: SubtypeConstructor<typeof grpc.Client, _weir_v1_DataExchangeClient> & { service: _weir_v1_DataExchangeDefinition }
      EndOfPartition: MessageTypeDefinition<_weir_v1_EndOfPartition, _weir_v1_EndOfPartition__Output>
      ProducerMessage: MessageTypeDefinition<_weir_v1_ProducerMessage, _weir_v1_ProducerMessage__Output>
      RecordBuffer: MessageTypeDefinition<_weir_v1_RecordBuffer, _weir_v1_RecordBuffer__Output>
      SubscribeRequest: MessageTypeDefinition<_weir_v1_SubscribeRequest, _weir_v1_SubscribeRequest__Output>
    }
  }
}

