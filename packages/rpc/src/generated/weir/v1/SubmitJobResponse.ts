// Original file: proto/weir/v1/job_service.proto


export interface SubmitJobResponse {
  'jobId'?: (string);
  'jobName'?: (string);
}

export interface SubmitJobResponse__Output {
  'jobId': (string);
  'jobName': (string);
}
