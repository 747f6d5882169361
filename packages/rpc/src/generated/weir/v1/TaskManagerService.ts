// Original file: proto/weir/v1/task_manager_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { FetchBundleRequest as _weir_v1_FetchBundleRequest, FetchBundleRequest__Output as _weir_v1_FetchBundleRequest__Output } from '../../weir/v1/FetchBundleRequest.ts';
import type { FetchBundleResponse as _weir_v1_FetchBundleResponse, FetchBundleResponse__Output as _weir_v1_FetchBundleResponse__Output } from '../../weir/v1/FetchBundleResponse.ts';
import type { JobManagerMessage as _weir_v1_JobManagerMessage, JobManagerMessage__Output as _weir_v1_JobManagerMessage__Output } from '../../weir/v1/JobManagerMessage.ts';
import type { TaskManagerMessage as _weir_v1_TaskManagerMessage, TaskManagerMessage__Output as _weir_v1_TaskManagerMessage__Output } from '../../weir/v1/TaskManagerMessage.ts';

export interface TaskManagerServiceClient extends grpc.Client {
  Connect(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_TaskManagerMessage, _weir_v1_JobManagerMessage__Output>;
  Connect(options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_TaskManagerMessage, _weir_v1_JobManagerMessage__Output>;
  connect(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_TaskManagerMessage, _weir_v1_JobManagerMessage__Output>;
  connect(options?: grpc.CallOptions): grpc.ClientDuplexStream<_weir_v1_TaskManagerMessage, _weir_v1_JobManagerMessage__Output>;
  
  FetchBundle(argument: _weir_v1_FetchBundleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  FetchBundle(argument: _weir_v1_FetchBundleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  FetchBundle(argument: _weir_v1_FetchBundleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  FetchBundle(argument: _weir_v1_FetchBundleRequest, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  fetchBundle(argument: _weir_v1_FetchBundleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  fetchBundle(argument: _weir_v1_FetchBundleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  fetchBundle(argument: _weir_v1_FetchBundleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  fetchBundle(argument: _weir_v1_FetchBundleRequest, callback: grpc.requestCallback<_weir_v1_FetchBundleResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface TaskManagerServiceHandlers extends grpc.UntypedServiceImplementation {
  Connect: grpc.handleBidiStreamingCall<_weir_v1_TaskManagerMessage__Output, _weir_v1_JobManagerMessage>;
  
  FetchBundle: grpc.handleUnaryCall<_weir_v1_FetchBundleRequest__Output, _weir_v1_FetchBundleResponse>;
  
}

export interface TaskManagerServiceDefinition extends grpc.ServiceDefinition {
  Connect: MethodDefinition<_weir_v1_TaskManagerMessage, _weir_v1_JobManagerMessage, _weir_v1_TaskManagerMessage__Output, _weir_v1_JobManagerMessage__Output>
  FetchBundle: MethodDefinition<_weir_v1_FetchBundleRequest, _weir_v1_FetchBundleResponse, _weir_v1_FetchBundleRequest__Output, _weir_v1_FetchBundleResponse__Output>
}
