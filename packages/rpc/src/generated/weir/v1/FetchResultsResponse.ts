// Original file: proto/weir/v1/job_service.proto


export interface FetchResultsResponse {
  'rows'?: (Buffer | Uint8Array | string);
  'jobStatus'?: (string);
  'endOfResults'?: (boolean);
}

export interface FetchResultsResponse__Output {
  'rows': (Buffer);
  'jobStatus': (string);
  'endOfResults': (boolean);
}
