// Original file: proto/weir/v1/data_exchange.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConsumerMessage as _weir_v1_ConsumerMessage, ConsumerMessage__Output as _weir_v1_ConsumerMessage__Output } from '../../weir/v1/ConsumerMessage.ts';
import type { ProducerMessage as _weir_v1_ProducerMessage, ProducerMessage__Output as _weir_v1_ProducerMessage__Output } from '../../weir/v1/ProducerMessage.ts';

export interface DataExchangeClient extends grpc.Client {
  Subscribe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_ConsumerMessage, _weir_v1_ProducerMessage__Output>;
  Subscribe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_ConsumerMessage, _weir_v1_ProducerMessage__Output>;
  subscribe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_ConsumerMessage, _weir_v1_ProducerMessage__Output>;
  subscribe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_ConsumerMessage, _weir_v1_ProducerMessage__Output>;
  
}

export interface DataExchangeHandlers extends grpc.UntypedServiceImplementation {
  Subscribe: grpc.handleBidiStreamingCall<_weir_v1_ConsumerMessage__Output, _weir_v1_ProducerMessage>;
  
}

export interface DataExchangeDefinition extends grpc.ServiceDefinition {
  Subscribe: MethodDefinition<_weir_v1_ConsumerMessage, _weir_v1_ProducerMessage, _weir_v1_ConsumerMessage__Output, _weir_v1_ProducerMessage__Output>
}
