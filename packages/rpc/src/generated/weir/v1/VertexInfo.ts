// Original file: proto/weir/v1/job_service.proto

import type { OperatorInfo as _weir_v1_OperatorInfo, OperatorInfo__Output as _weir_v1_OperatorInfo__Output } from '../../weir/v1/OperatorInfo.ts';
import type { VertexInput as _weir_v1_VertexInput, VertexInput__Output as _weir_v1_VertexInput__Output } from '../../weir/v1/VertexInput.ts';
import type { SubtaskInfo as _weir_v1_SubtaskInfo, SubtaskInfo__Output as _weir_v1_SubtaskInfo__Output } from '../../weir/v1/SubtaskInfo.ts';

export interface VertexInfo {
  'vertexId'?: (string);
  'name'?: (string);
  'parallelism'?: (number);
  'maxParallelism'?: (number);
  'operators'?: (_weir_v1_OperatorInfo)[];
  'inputs'?: (_weir_v1_VertexInput)[];
  'subtasks'?: (_weir_v1_SubtaskInfo)[];
}

export interface VertexInfo__Output {
  'vertexId': (string);
  'name': (string);
  'parallelism': (number);
  'maxParallelism': (number);
  'operators': (_weir_v1_OperatorInfo__Output)[];
  'inputs': (_weir_v1_VertexInput__Output)[];
  'subtasks': (_weir_v1_SubtaskInfo__Output)[];
}
