// Original file: proto/weir/v1/task_manager_service.proto


export interface PeerUnreachable {
  'dataAddress'?: (string);
  'cause'?: (string);
}

export interface PeerUnreachable__Output {
  'dataAddress': (string);
  'cause': (string);
}
