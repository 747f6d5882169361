// Original file: proto/weir/v1/job_service.proto


export interface FetchResultsRequest {
  'jobId'?: (string);
  'maxRows'?: (number);
}

export interface FetchResultsRequest__Output {
  'jobId': (string);
  'maxRows': (number);
}
