// Original file: proto/weir/v1/data_exchange.proto

import type { CheckpointOptions as _weir_v1_CheckpointOptions, CheckpointOptions__Output as _weir_v1_CheckpointOptions__Output } from '../../weir/v1/CheckpointOptions.ts';
import type { Long } from '@grpc/proto-loader';

export interface CheckpointBarrier {
  'checkpointId'?: (number | string | Long);
  'timestampMs'?: (number | string | Long);
  'options'?: (_weir_v1_CheckpointOptions | null);
  'unaligned'?: (boolean);
}

export interface CheckpointBarrier__Output {
  'checkpointId': (number);
  'timestampMs': (number);
  'options': (_weir_v1_CheckpointOptions__Output | null);
  'unaligned': (boolean);
}
