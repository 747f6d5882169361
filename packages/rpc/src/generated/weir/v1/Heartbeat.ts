// Original file: proto/weir/v1/task_manager_service.proto

import type { Long } from '@grpc/proto-loader';

export interface Heartbeat {
  'timestampMs'?: (number | string | Long);
}

export interface Heartbeat__Output {
  'timestampMs': (number);
}
