// Original file: proto/weir/v1/job_service.proto


export interface SubtaskInfo {
  'index'?: (number);
  'state'?: (string);
  'taskManagerId'?: (string);
  'failureCause'?: (string);
}

export interface SubtaskInfo__Output {
  'index': (number);
  'state': (string);
  'taskManagerId': (string);
  'failureCause': (string);
}
