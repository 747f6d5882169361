// Original file: proto/weir/v1/task_manager_service.proto

import type { OperatorMetric as _weir_v1_OperatorMetric, OperatorMetric__Output as _weir_v1_OperatorMetric__Output } from '../../weir/v1/OperatorMetric.ts';

export interface OperatorMetrics {
  'operatorId'?: (string);
  'operatorName'?: (string);
  'metrics'?: (_weir_v1_OperatorMetric)[];
}

export interface OperatorMetrics__Output {
  'operatorId': (string);
  'operatorName': (string);
  'metrics': (_weir_v1_OperatorMetric__Output)[];
}
