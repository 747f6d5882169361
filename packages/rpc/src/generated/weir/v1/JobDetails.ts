// Original file: proto/weir/v1/job_service.proto

import type { JobSummary as _weir_v1_JobSummary, JobSummary__Output as _weir_v1_JobSummary__Output } from '../../weir/v1/JobSummary.ts';
import type { VertexInfo as _weir_v1_VertexInfo, VertexInfo__Output as _weir_v1_VertexInfo__Output } from '../../weir/v1/VertexInfo.ts';
import type { FailoverInfo as _weir_v1_FailoverInfo, FailoverInfo__Output as _weir_v1_FailoverInfo__Output } from '../../weir/v1/FailoverInfo.ts';
import type { ExclusiveResource as _weir_v1_ExclusiveResource, ExclusiveResource__Output as _weir_v1_ExclusiveResource__Output } from '../../weir/v1/ExclusiveResource.ts';

export interface JobDetails {
  'summary'?: (_weir_v1_JobSummary | null);
  'vertices'?: (_weir_v1_VertexInfo)[];
  'failureCause'?: (string);
  'attempt'?: (number);
  'failovers'?: (_weir_v1_FailoverInfo)[];
  'checkpointing'?: (string);
  'restartStrategy'?: (string);
  'configuration'?: ({[key: string]: string});
  'exclusiveResources'?: (_weir_v1_ExclusiveResource)[];
}

export interface JobDetails__Output {
  'summary': (_weir_v1_JobSummary__Output | null);
  'vertices': (_weir_v1_VertexInfo__Output)[];
  'failureCause': (string);
  'attempt': (number);
  'failovers': (_weir_v1_FailoverInfo__Output)[];
  'checkpointing': (string);
  'restartStrategy': (string);
  'configuration': ({[key: string]: string});
  'exclusiveResources': (_weir_v1_ExclusiveResource__Output)[];
}
