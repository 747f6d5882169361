// Original file: proto/weir/v1/job_service.proto


export interface OperatorInfo {
  'operatorId'?: (string);
  'uid'?: (string);
  'name'?: (string);
}

export interface OperatorInfo__Output {
  'operatorId': (string);
  'uid': (string);
  'name': (string);
}
