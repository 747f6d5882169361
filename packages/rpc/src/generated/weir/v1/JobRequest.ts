// Original file: proto/weir/v1/job_service.proto


export interface JobRequest {
  'jobId'?: (string);
}

export interface JobRequest__Output {
  'jobId': (string);
}
