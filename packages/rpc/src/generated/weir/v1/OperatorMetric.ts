// Original file: proto/weir/v1/task_manager_service.proto


export interface OperatorMetric {
  'name'?: (string);
  'value'?: (number | string);
}

export interface OperatorMetric__Output {
  'name': (string);
  'value': (number);
}
