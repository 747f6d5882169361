// Original file: proto/weir/v1/data_exchange.proto

import type { Long } from '@grpc/proto-loader';

export interface CheckpointBarrier {
  'checkpointId'?: (number | string | Long);
  'timestampMs'?: (number | string | Long);
}

export interface CheckpointBarrier__Output {
  'checkpointId': (number);
  'timestampMs': (number);
}
