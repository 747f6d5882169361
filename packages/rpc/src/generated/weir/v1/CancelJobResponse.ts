// Original file: proto/weir/v1/job_service.proto


export interface CancelJobResponse {
  'status'?: (string);
}

export interface CancelJobResponse__Output {
  'status': (string);
}
