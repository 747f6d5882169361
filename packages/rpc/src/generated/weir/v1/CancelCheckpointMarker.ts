// Original file: proto/weir/v1/data_exchange.proto

import type { Long } from '@grpc/proto-loader';

export interface CancelCheckpointMarker {
  'checkpointId'?: (number | string | Long);
}

export interface CancelCheckpointMarker__Output {
  'checkpointId': (number);
}
