// Original file: proto/weir/v1/task_manager_service.proto


export interface Registered {
  'taskManagerId'?: (string);
  'heartbeatIntervalMs'?: (number);
  'heartbeatTimeoutMs'?: (number);
}

export interface Registered__Output {
  'taskManagerId': (string);
  'heartbeatIntervalMs': (number);
  'heartbeatTimeoutMs': (number);
}
