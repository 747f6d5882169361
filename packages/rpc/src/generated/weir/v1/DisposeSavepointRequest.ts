// Original file: proto/weir/v1/job_service.proto


export interface DisposeSavepointRequest {
  'savepointPath'?: (string);
}

export interface DisposeSavepointRequest__Output {
  'savepointPath': (string);
}
