// Original file: proto/weir/v1/task_manager_service.proto

import type { Long } from '@grpc/proto-loader';

export interface Probe {
  'nonce'?: (number | string | Long);
}

export interface Probe__Output {
  'nonce': (number);
}
