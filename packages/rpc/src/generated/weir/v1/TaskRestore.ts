// Original file: proto/weir/v1/task_manager_service.proto

import type { Long } from '@grpc/proto-loader';

export interface TaskRestore {
  'checkpointId'?: (number | string | Long);
  'state'?: (Buffer | Uint8Array | string);
  'checkpointPath'?: (string);
}

export interface TaskRestore__Output {
  'checkpointId': (number);
  'state': (Buffer);
  'checkpointPath': (string);
}
