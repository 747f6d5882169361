import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CancelJobResponse as _weir_v1_CancelJobResponse, CancelJobResponse__Output as _weir_v1_CancelJobResponse__Output } from './weir/v1/CancelJobResponse.ts';
import type { CheckpointInfo as _weir_v1_CheckpointInfo, CheckpointInfo__Output as _weir_v1_CheckpointInfo__Output } from './weir/v1/CheckpointInfo.ts';
import type { ClusterOverview as _weir_v1_ClusterOverview, ClusterOverview__Output as _weir_v1_ClusterOverview__Output } from './weir/v1/ClusterOverview.ts';
import type { ClusterOverviewRequest as _weir_v1_ClusterOverviewRequest, ClusterOverviewRequest__Output as _weir_v1_ClusterOverviewRequest__Output } from './weir/v1/ClusterOverviewRequest.ts';
import type { DisposeSavepointRequest as _weir_v1_DisposeSavepointRequest, DisposeSavepointRequest__Output as _weir_v1_DisposeSavepointRequest__Output } from './weir/v1/DisposeSavepointRequest.ts';
import type { DisposeSavepointResponse as _weir_v1_DisposeSavepointResponse, DisposeSavepointResponse__Output as _weir_v1_DisposeSavepointResponse__Output } from './weir/v1/DisposeSavepointResponse.ts';
import type { ExclusiveResource as _weir_v1_ExclusiveResource, ExclusiveResource__Output as _weir_v1_ExclusiveResource__Output } from './weir/v1/ExclusiveResource.ts';
import type { FailoverInfo as _weir_v1_FailoverInfo, FailoverInfo__Output as _weir_v1_FailoverInfo__Output } from './weir/v1/FailoverInfo.ts';
import type { FetchResultsRequest as _weir_v1_FetchResultsRequest, FetchResultsRequest__Output as _weir_v1_FetchResultsRequest__Output } from './weir/v1/FetchResultsRequest.ts';
import type { FetchResultsResponse as _weir_v1_FetchResultsResponse, FetchResultsResponse__Output as _weir_v1_FetchResultsResponse__Output } from './weir/v1/FetchResultsResponse.ts';
import type { JobDetails as _weir_v1_JobDetails, JobDetails__Output as _weir_v1_JobDetails__Output } from './weir/v1/JobDetails.ts';
import type { JobRequest as _weir_v1_JobRequest, JobRequest__Output as _weir_v1_JobRequest__Output } from './weir/v1/JobRequest.ts';
import type { JobServiceClient as _weir_v1_JobServiceClient, JobServiceDefinition as _weir_v1_JobServiceDefinition } from './weir/v1/JobService.ts';
import type { JobStatusUpdate as _weir_v1_JobStatusUpdate, JobStatusUpdate__Output as _weir_v1_JobStatusUpdate__Output } from './weir/v1/JobStatusUpdate.ts';
import type { JobSummary as _weir_v1_JobSummary, JobSummary__Output as _weir_v1_JobSummary__Output } from './weir/v1/JobSummary.ts';
import type { ListCheckpointsResponse as _weir_v1_ListCheckpointsResponse, ListCheckpointsResponse__Output as _weir_v1_ListCheckpointsResponse__Output } from './weir/v1/ListCheckpointsResponse.ts';
import type { ListJobsRequest as _weir_v1_ListJobsRequest, ListJobsRequest__Output as _weir_v1_ListJobsRequest__Output } from './weir/v1/ListJobsRequest.ts';
import type { ListJobsResponse as _weir_v1_ListJobsResponse, ListJobsResponse__Output as _weir_v1_ListJobsResponse__Output } from './weir/v1/ListJobsResponse.ts';
import type { OperatorInfo as _weir_v1_OperatorInfo, OperatorInfo__Output as _weir_v1_OperatorInfo__Output } from './weir/v1/OperatorInfo.ts';
import type { SubmitJobRequest as _weir_v1_SubmitJobRequest, SubmitJobRequest__Output as _weir_v1_SubmitJobRequest__Output } from './weir/v1/SubmitJobRequest.ts';
import type { SubmitJobResponse as _weir_v1_SubmitJobResponse, SubmitJobResponse__Output as _weir_v1_SubmitJobResponse__Output } from './weir/v1/SubmitJobResponse.ts';
import type { SubtaskInfo as _weir_v1_SubtaskInfo, SubtaskInfo__Output as _weir_v1_SubtaskInfo__Output } from './weir/v1/SubtaskInfo.ts';
import type { TriggerCheckpointRequest as _weir_v1_TriggerCheckpointRequest, TriggerCheckpointRequest__Output as _weir_v1_TriggerCheckpointRequest__Output } from './weir/v1/TriggerCheckpointRequest.ts';
import type { TriggerCheckpointResponse as _weir_v1_TriggerCheckpointResponse, TriggerCheckpointResponse__Output as _weir_v1_TriggerCheckpointResponse__Output } from './weir/v1/TriggerCheckpointResponse.ts';
import type { TriggerSavepointRequest as _weir_v1_TriggerSavepointRequest, TriggerSavepointRequest__Output as _weir_v1_TriggerSavepointRequest__Output } from './weir/v1/TriggerSavepointRequest.ts';
import type { TriggerSavepointResponse as _weir_v1_TriggerSavepointResponse, TriggerSavepointResponse__Output as _weir_v1_TriggerSavepointResponse__Output } from './weir/v1/TriggerSavepointResponse.ts';
import type { VertexInfo as _weir_v1_VertexInfo, VertexInfo__Output as _weir_v1_VertexInfo__Output } from './weir/v1/VertexInfo.ts';
import type { VertexInput as _weir_v1_VertexInput, VertexInput__Output as _weir_v1_VertexInput__Output } from './weir/v1/VertexInput.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  weir: {
    v1: {
      CancelJobResponse: MessageTypeDefinition<_weir_v1_CancelJobResponse, _weir_v1_CancelJobResponse__Output>
      CheckpointInfo: MessageTypeDefinition<_weir_v1_CheckpointInfo, _weir_v1_CheckpointInfo__Output>
      ClusterOverview: MessageTypeDefinition<_weir_v1_ClusterOverview, _weir_v1_ClusterOverview__Output>
      ClusterOverviewRequest: MessageTypeDefinition<_weir_v1_ClusterOverviewRequest, _weir_v1_ClusterOverviewRequest__Output>
      DisposeSavepointRequest: MessageTypeDefinition<_weir_v1_DisposeSavepointRequest, _weir_v1_DisposeSavepointRequest__Output>
      DisposeSavepointResponse: MessageTypeDefinition<_weir_v1_DisposeSavepointResponse, _weir_v1_DisposeSavepointResponse__Output>
      ExclusiveResource: MessageTypeDefinition<_weir_v1_ExclusiveResource, _weir_v1_ExclusiveResource__Output>
      FailoverInfo: MessageTypeDefinition<_weir_v1_FailoverInfo, _weir_v1_FailoverInfo__Output>
      FetchResultsRequest: MessageTypeDefinition<_weir_v1_FetchResultsRequest, _weir_v1_FetchResultsRequest__Output>
      FetchResultsResponse: MessageTypeDefinition<_weir_v1_FetchResultsResponse, _weir_v1_FetchResultsResponse__Output>
      JobDetails: MessageTypeDefinition<_weir_v1_JobDetails, _weir_v1_JobDetails__Output>
      JobRequest: MessageTypeDefinition<_weir_v1_JobRequest, _weir_v1_JobRequest__Output>
      JobService: SubtypeConstructor<typeof grpc.Client, _weir_v1_JobServiceClient> & { service: _weir_v1_JobServiceDefinition }
      JobStatusUpdate: MessageTypeDefinition<_weir_v1_JobStatusUpdate, _weir_v1_JobStatusUpdate__Output>
      JobSummary: MessageTypeDefinition<_weir_v1_JobSummary, _weir_v1_JobSummary__Output>
      ListCheckpointsResponse: MessageTypeDefinition<_weir_v1_ListCheckpointsResponse, _weir_v1_ListCheckpointsResponse__Output>
      ListJobsRequest: MessageTypeDefinition<_weir_v1_ListJobsRequest, _weir_v1_ListJobsRequest__Output>
      ListJobsResponse: MessageTypeDefinition<_weir_v1_ListJobsResponse, _weir_v1_ListJobsResponse__Output>
      OperatorInfo: MessageTypeDefinition<_weir_v1_OperatorInfo, _weir_v1_OperatorInfo__Output>
      SubmitJobRequest: MessageTypeDefinition<_weir_v1_SubmitJobRequest, _weir_v1_SubmitJobRequest__Output>
      SubmitJobResponse: MessageTypeDefinition<_weir_v1_SubmitJobResponse, _weir_v1_SubmitJobResponse__Output>
      SubtaskInfo: MessageTypeDefinition<_weir_v1_SubtaskInfo, _weir_v1_SubtaskInfo__Output>
      TriggerCheckpointRequest: MessageTypeDefinition<_weir_v1_TriggerCheckpointRequest, _weir_v1_TriggerCheckpointRequest__Output>
      TriggerCheckpointResponse: MessageTypeDefinition<_weir_v1_TriggerCheckpointResponse, _weir_v1_TriggerCheckpointResponse__Output>
      TriggerSavepointRequest: MessageTypeDefinition<_weir_v1_TriggerSavepointRequest, _weir_v1_TriggerSavepointRequest__Output>
      TriggerSavepointResponse: MessageTypeDefinition<_weir_v1_TriggerSavepointResponse, _weir_v1_TriggerSavepointResponse__Output>
      VertexInfo: MessageTypeDefinition<_weir_v1_VertexInfo, _weir_v1_VertexInfo__Output>
      VertexInput: MessageTypeDefinition<_weir_v1_VertexInput, _weir_v1_VertexInput__Output>
    }
  }
}

