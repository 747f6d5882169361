// Original file: proto/weir/v1/task_manager_service.proto


export interface FetchBundleRequest {
  'bundleHash'?: (string);
}

export interface FetchBundleRequest__Output {
  'bundleHash': (string);
}
