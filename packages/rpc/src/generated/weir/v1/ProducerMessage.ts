// Original file: proto/weir/v1/data_exchange.proto

import type { RecordBuffer as _weir_v1_RecordBuffer, RecordBuffer__Output as _weir_v1_RecordBuffer__Output } from '../../weir/v1/RecordBuffer.ts';
import type { EndOfPartition as _weir_v1_EndOfPartition, EndOfPartition__Output as _weir_v1_EndOfPartition__Output } from '../../weir/v1/EndOfPartition.ts';

export interface ProducerMessage {
  'buffer'?: (_weir_v1_RecordBuffer | null);
  'endOfPartition'?: (_weir_v1_EndOfPartition | null);
  'kind'?: "buffer"|"endOfPartition";
}

export interface ProducerMessage__Output {
  'buffer'?: (_weir_v1_RecordBuffer__Output | null);
  'endOfPartition'?: (_weir_v1_EndOfPartition__Output | null);
  'kind'?: "buffer"|"endOfPartition";
}
