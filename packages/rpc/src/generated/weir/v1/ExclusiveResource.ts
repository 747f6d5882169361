// Original file: proto/weir/v1/job_service.proto


export interface ExclusiveResource {
  'kind'?: (string);
  'scope'?: (string);
  'name'?: (string);
  'description'?: (string);
  'leftBehind'?: (string);
}

export interface ExclusiveResource__Output {
  'kind': (string);
  'scope': (string);
  'name': (string);
  'description': (string);
  'leftBehind': (string);
}
