// Original file: proto/weir/v1/task_manager_service.proto

import type { ProducerLocation as _weir_v1_ProducerLocation, ProducerLocation__Output as _weir_v1_ProducerLocation__Output } from '../../weir/v1/ProducerLocation.ts';

export interface InputDeployment {
  'sourceVertexId'?: (string);
  'producers'?: (_weir_v1_ProducerLocation)[];
}

export interface InputDeployment__Output {
  'sourceVertexId': (string);
  'producers': (_weir_v1_ProducerLocation__Output)[];
}
