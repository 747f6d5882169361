// Original file: proto/weir/v1/job_service.proto


export interface JobStatusUpdate {
  'jobId'?: (string);
  'status'?: (string);
  'failureCause'?: (string);
}

export interface JobStatusUpdate__Output {
  'jobId': (string);
  'status': (string);
  'failureCause': (string);
}
