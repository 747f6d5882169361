// Original file: proto/weir/v1/job_service.proto


export interface TriggerCheckpointRequest {
  'jobId'?: (string);
  'checkpointType'?: (string);
}

export interface TriggerCheckpointRequest__Output {
  'jobId': (string);
  'checkpointType': (string);
}
