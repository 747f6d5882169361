// Original file: proto/weir/v1/task_manager_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ProbeAck {
  'nonce'?: (number | string | Long);
}

export interface ProbeAck__Output {
  'nonce': (number);
}
