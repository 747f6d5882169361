// Original file: proto/weir/v1/job_service.proto


export interface TriggerSavepointRequest {
  'jobId'?: (string);
  'targetDirectory'?: (string);
  'terminate'?: (string);
  'drain'?: (boolean);
}

export interface TriggerSavepointRequest__Output {
  'jobId': (string);
  'targetDirectory': (string);
  'terminate': (string);
  'drain': (boolean);
}
