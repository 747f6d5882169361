// Original file: proto/weir/v1/task_manager_service.proto


export interface RegisterTaskManager {
  'taskManagerId'?: (string);
  'dataAddress'?: (string);
  'slots'?: (number);
  'pid'?: (number);
}

export interface RegisterTaskManager__Output {
  'taskManagerId': (string);
  'dataAddress': (string);
  'slots': (number);
  'pid': (number);
}
