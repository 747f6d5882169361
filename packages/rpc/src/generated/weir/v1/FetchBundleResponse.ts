// Original file: proto/weir/v1/task_manager_service.proto


export interface FetchBundleResponse {
  'bundle'?: (Buffer | Uint8Array | string);
}

export interface FetchBundleResponse__Output {
  'bundle': (Buffer);
}
