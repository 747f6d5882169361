// Original file: proto/weir/v1/job_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CancelJobResponse as _weir_v1_CancelJobResponse, CancelJobResponse__Output as _weir_v1_CancelJobResponse__Output } from '../../weir/v1/CancelJobResponse.ts';
import type { ClusterOverview as _weir_v1_ClusterOverview, ClusterOverview__Output as _weir_v1_ClusterOverview__Output } from '../../weir/v1/ClusterOverview.ts';
import type { ClusterOverviewRequest as _weir_v1_ClusterOverviewRequest, ClusterOverviewRequest__Output as _weir_v1_ClusterOverviewRequest__Output } from '../../weir/v1/ClusterOverviewRequest.ts';
import type { DisposeSavepointRequest as _weir_v1_DisposeSavepointRequest, DisposeSavepointRequest__Output as _weir_v1_DisposeSavepointRequest__Output } from '../../weir/v1/DisposeSavepointRequest.ts';
import type { DisposeSavepointResponse as _weir_v1_DisposeSavepointResponse, DisposeSavepointResponse__Output as _weir_v1_DisposeSavepointResponse__Output } from '../../weir/v1/DisposeSavepointResponse.ts';
import type { FetchResultsRequest as _weir_v1_FetchResultsRequest, FetchResultsRequest__Output as _weir_v1_FetchResultsRequest__Output } from '../../weir/v1/FetchResultsRequest.ts';
import type { FetchResultsResponse as _weir_v1_FetchResultsResponse, FetchResultsResponse__Output as _weir_v1_FetchResultsResponse__Output } from '../../weir/v1/FetchResultsResponse.ts';
import type { JobDetails as _weir_v1_JobDetails, JobDetails__Output as _weir_v1_JobDetails__Output } from '../../weir/v1/JobDetails.ts';
import type { JobRequest as _weir_v1_JobRequest, JobRequest__Output as _weir_v1_JobRequest__Output } from '../../weir/v1/JobRequest.ts';
import type { JobStatusUpdate as _weir_v1_JobStatusUpdate, JobStatusUpdate__Output as _weir_v1_JobStatusUpdate__Output } from '../../weir/v1/JobStatusUpdate.ts';
import type { ListCheckpointsResponse as _weir_v1_ListCheckpointsResponse, ListCheckpointsResponse__Output as _weir_v1_ListCheckpointsResponse__Output } from '../../weir/v1/ListCheckpointsResponse.ts';
import type { ListJobsRequest as _weir_v1_ListJobsRequest, ListJobsRequest__Output as _weir_v1_ListJobsRequest__Output } from '../../weir/v1/ListJobsRequest.ts';
import type { ListJobsResponse as _weir_v1_ListJobsResponse, ListJobsResponse__Output as _weir_v1_ListJobsResponse__Output } from '../../weir/v1/ListJobsResponse.ts';
import type { SubmitJobRequest as _weir_v1_SubmitJobRequest, SubmitJobRequest__Output as _weir_v1_SubmitJobRequest__Output } from '../../weir/v1/SubmitJobRequest.ts';
import type { SubmitJobResponse as _weir_v1_SubmitJobResponse, SubmitJobResponse__Output as _weir_v1_SubmitJobResponse__Output } from '../../weir/v1/SubmitJobResponse.ts';
import type { TriggerCheckpointRequest as _weir_v1_TriggerCheckpointRequest, TriggerCheckpointRequest__Output as _weir_v1_TriggerCheckpointRequest__Output } from '../../weir/v1/TriggerCheckpointRequest.ts';
import type { TriggerCheckpointResponse as _weir_v1_TriggerCheckpointResponse, TriggerCheckpointResponse__Output as _weir_v1_TriggerCheckpointResponse__Output } from '../../weir/v1/TriggerCheckpointResponse.ts';
import type { TriggerSavepointRequest as _weir_v1_TriggerSavepointRequest, TriggerSavepointRequest__Output as _weir_v1_TriggerSavepointRequest__Output } from '../../weir/v1/TriggerSavepointRequest.ts';
import type { TriggerSavepointResponse as _weir_v1_TriggerSavepointResponse, TriggerSavepointResponse__Output as _weir_v1_TriggerSavepointResponse__Output } from '../../weir/v1/TriggerSavepointResponse.ts';

export interface JobServiceClient extends grpc.Client {
  CancelJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _weir_v1_JobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _weir_v1_JobRequest, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _weir_v1_JobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _weir_v1_JobRequest, callback: grpc.requestCallback<_weir_v1_CancelJobResponse__Output>): grpc.ClientUnaryCall;
  
  DisposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  DisposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  DisposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  DisposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  disposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  disposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  disposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  disposeSavepoint(argument: _weir_v1_DisposeSavepointRequest, callback: grpc.requestCallback<_weir_v1_DisposeSavepointResponse__Output>): grpc.ClientUnaryCall;
  
  FetchResults(argument: _weir_v1_FetchResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  FetchResults(argument: _weir_v1_FetchResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  FetchResults(argument: _weir_v1_FetchResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  FetchResults(argument: _weir_v1_FetchResultsRequest, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  fetchResults(argument: _weir_v1_FetchResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  fetchResults(argument: _weir_v1_FetchResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  fetchResults(argument: _weir_v1_FetchResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  fetchResults(argument: _weir_v1_FetchResultsRequest, callback: grpc.requestCallback<_weir_v1_FetchResultsResponse__Output>): grpc.ClientUnaryCall;
  
  GetClusterOverview(argument: _weir_v1_ClusterOverviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  GetClusterOverview(argument: _weir_v1_ClusterOverviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  GetClusterOverview(argument: _weir_v1_ClusterOverviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  GetClusterOverview(argument: _weir_v1_ClusterOverviewRequest, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  getClusterOverview(argument: _weir_v1_ClusterOverviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  getClusterOverview(argument: _weir_v1_ClusterOverviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  getClusterOverview(argument: _weir_v1_ClusterOverviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  getClusterOverview(argument: _weir_v1_ClusterOverviewRequest, callback: grpc.requestCallback<_weir_v1_ClusterOverview__Output>): grpc.ClientUnaryCall;
  
  GetJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _weir_v1_JobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _weir_v1_JobRequest, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  getJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  getJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  getJob(argument: _weir_v1_JobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  getJob(argument: _weir_v1_JobRequest, callback: grpc.requestCallback<_weir_v1_JobDetails__Output>): grpc.ClientUnaryCall;
  
  ListCheckpoints(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  ListCheckpoints(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  ListCheckpoints(argument: _weir_v1_JobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  ListCheckpoints(argument: _weir_v1_JobRequest, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  listCheckpoints(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  listCheckpoints(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  listCheckpoints(argument: _weir_v1_JobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  listCheckpoints(argument: _weir_v1_JobRequest, callback: grpc.requestCallback<_weir_v1_ListCheckpointsResponse__Output>): grpc.ClientUnaryCall;
  
  ListJobs(argument: _weir_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _weir_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _weir_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _weir_v1_ListJobsRequest, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _weir_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _weir_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _weir_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _weir_v1_ListJobsRequest, callback: grpc.requestCallback<_weir_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  
  SubmitJob(argument: _weir_v1_SubmitJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  SubmitJob(argument: _weir_v1_SubmitJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  SubmitJob(argument: _weir_v1_SubmitJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  SubmitJob(argument: _weir_v1_SubmitJobRequest, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  submitJob(argument: _weir_v1_SubmitJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  submitJob(argument: _weir_v1_SubmitJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  submitJob(argument: _weir_v1_SubmitJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  submitJob(argument: _weir_v1_SubmitJobRequest, callback: grpc.requestCallback<_weir_v1_SubmitJobResponse__Output>): grpc.ClientUnaryCall;
  
  TriggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  TriggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  TriggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  TriggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  triggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  triggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  triggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  triggerCheckpoint(argument: _weir_v1_TriggerCheckpointRequest, callback: grpc.requestCallback<_weir_v1_TriggerCheckpointResponse__Output>): grpc.ClientUnaryCall;
  
  TriggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  TriggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  TriggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  TriggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  triggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  triggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  triggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  triggerSavepoint(argument: _weir_v1_TriggerSavepointRequest, callback: grpc.requestCallback<_weir_v1_TriggerSavepointResponse__Output>): grpc.ClientUnaryCall;
  
  WatchJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_weir_v1_JobStatusUpdate__Output>;
  WatchJob(argument: _weir_v1_JobRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_weir_v1_JobStatusUpdate__Output>;
  watchJob(argument: _weir_v1_JobRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_weir_v1_JobStatusUpdate__Output>;
  watchJob(argument: _weir_v1_JobRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_weir_v1_JobStatusUpdate__Output>;
  
}

export interface JobServiceHandlers extends grpc.UntypedServiceImplementation {
  CancelJob: grpc.handleUnaryCall<_weir_v1_JobRequest__Output, _weir_v1_CancelJobResponse>;
  
  DisposeSavepoint: grpc.handleUnaryCall<_weir_v1_DisposeSavepointRequest__Output, _weir_v1_DisposeSavepointResponse>;
  
  FetchResults: grpc.handleUnaryCall<_weir_v1_FetchResultsRequest__Output, _weir_v1_FetchResultsResponse>;
  
  GetClusterOverview: grpc.handleUnaryCall<_weir_v1_ClusterOverviewRequest__Output, _weir_v1_ClusterOverview>;
  
  GetJob: grpc.handleUnaryCall<_weir_v1_JobRequest__Output, _weir_v1_JobDetails>;
  
  ListCheckpoints: grpc.handleUnaryCall<_weir_v1_JobRequest__Output, _weir_v1_ListCheckpointsResponse>;
  
  ListJobs: grpc.handleUnaryCall<_weir_v1_ListJobsRequest__Output, _weir_v1_ListJobsResponse>;
  
  SubmitJob: grpc.handleUnaryCall<_weir_v1_SubmitJobRequest__Output, _weir_v1_SubmitJobResponse>;
  
  TriggerCheckpoint: grpc.handleUnaryCall<_weir_v1_TriggerCheckpointRequest__Output, _weir_v1_TriggerCheckpointResponse>;
  
  TriggerSavepoint: grpc.handleUnaryCall<_weir_v1_TriggerSavepointRequest__Output, _weir_v1_TriggerSavepointResponse>;
  
  WatchJob: grpc.handleServerStreamingCall<_weir_v1_JobRequest__Output, _weir_v1_JobStatusUpdate>;
  
}

export interface JobServiceDefinition extends grpc.ServiceDefinition {
  CancelJob: MethodDefinition<_weir_v1_JobRequest, _weir_v1_CancelJobResponse, _weir_v1_JobRequest__Output, _weir_v1_CancelJobResponse__Output>
  DisposeSavepoint: MethodDefinition<_weir_v1_DisposeSavepointRequest, _weir_v1_DisposeSavepointResponse, _weir_v1_DisposeSavepointRequest__Output, _weir_v1_DisposeSavepointResponse__Output>
  FetchResults: MethodDefinition<_weir_v1_FetchResultsRequest, _weir_v1_FetchResultsResponse, _weir_v1_FetchResultsRequest__Output, _weir_v1_FetchResultsResponse__Output>
  GetClusterOverview: MethodDefinition<_weir_v1_ClusterOverviewRequest, _weir_v1_ClusterOverview, _weir_v1_ClusterOverviewRequest__Output, _weir_v1_ClusterOverview__Output>
  GetJob: MethodDefinition<_weir_v1_JobRequest, _weir_v1_JobDetails, _weir_v1_JobRequest__Output, _weir_v1_JobDetails__Output>
  ListCheckpoints: MethodDefinition<_weir_v1_JobRequest, _weir_v1_ListCheckpointsResponse, _weir_v1_JobRequest__Output, _weir_v1_ListCheckpointsResponse__Output>
  ListJobs: MethodDefinition<_weir_v1_ListJobsRequest, _weir_v1_ListJobsResponse, _weir_v1_ListJobsRequest__Output, _weir_v1_ListJobsResponse__Output>
  SubmitJob: MethodDefinition<_weir_v1_SubmitJobRequest, _weir_v1_SubmitJobResponse, _weir_v1_SubmitJobRequest__Output, _weir_v1_SubmitJobResponse__Output>
  TriggerCheckpoint: MethodDefinition<_weir_v1_TriggerCheckpointRequest, _weir_v1_TriggerCheckpointResponse, _weir_v1_TriggerCheckpointRequest__Output, _weir_v1_TriggerCheckpointResponse__Output>
  TriggerSavepoint: MethodDefinition<_weir_v1_TriggerSavepointRequest, _weir_v1_TriggerSavepointResponse, _weir_v1_TriggerSavepointRequest__Output, _weir_v1_TriggerSavepointResponse__Output>
  WatchJob: MethodDefinition<_weir_v1_JobRequest, _weir_v1_JobStatusUpdate, _weir_v1_JobRequest__Output, _weir_v1_JobStatusUpdate__Output>
}
