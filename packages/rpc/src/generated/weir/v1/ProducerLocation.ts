// Original file: proto/weir/v1/task_manager_service.proto


export interface ProducerLocation {
  'subtaskIndex'?: (number);
  'taskManagerId'?: (string);
  'dataAddress'?: (string);
}

export interface ProducerLocation__Output {
  'subtaskIndex': (number);
  'taskManagerId': (string);
  'dataAddress': (string);
}
