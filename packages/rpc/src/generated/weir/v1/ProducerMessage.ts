// Original file: proto/weir/v1/data_exchange.proto

import type { RecordBuffer as _weir_v1_RecordBuffer, RecordBuffer__Output as _weir_v1_RecordBuffer__Output } from '../../weir/v1/RecordBuffer.ts';
import type { EndOfPartition as _weir_v1_EndOfPartition, EndOfPartition__Output as _weir_v1_EndOfPartition__Output } from '../../weir/v1/EndOfPartition.ts';
import type { CheckpointBarrier as _weir_v1_CheckpointBarrier, CheckpointBarrier__Output as _weir_v1_CheckpointBarrier__Output } from '../../weir/v1/CheckpointBarrier.ts';
import type { CancelCheckpointMarker as _weir_v1_CancelCheckpointMarker, CancelCheckpointMarker__Output as _weir_v1_CancelCheckpointMarker__Output } from '../../weir/v1/CancelCheckpointMarker.ts';
import type { EndOfData as _weir_v1_EndOfData, EndOfData__Output as _weir_v1_EndOfData__Output } from '../../weir/v1/EndOfData.ts';
import type { Watermark as _weir_v1_Watermark, Watermark__Output as _weir_v1_Watermark__Output } from '../../weir/v1/Watermark.ts';
import type { WatermarkStatus as _weir_v1_WatermarkStatus, WatermarkStatus__Output as _weir_v1_WatermarkStatus__Output } from '../../weir/v1/WatermarkStatus.ts';

export interface ProducerMessage {
  'buffer'?: (_weir_v1_RecordBuffer | null);
  'endOfPartition'?: (_weir_v1_EndOfPartition | null);
  'barrier'?: (_weir_v1_CheckpointBarrier | null);
  'cancelCheckpoint'?: (_weir_v1_CancelCheckpointMarker | null);
  'endOfData'?: (_weir_v1_EndOfData | null);
  'watermark'?: (_weir_v1_Watermark | null);
  'watermarkStatus'?: (_weir_v1_WatermarkStatus | null);
  'kind'?: "buffer"|"endOfPartition"|"barrier"|"cancelCheckpoint"|"endOfData"|"watermark"|"watermarkStatus";
}

export interface ProducerMessage__Output {
  'buffer'?: (_weir_v1_RecordBuffer__Output | null);
  'endOfPartition'?: (_weir_v1_EndOfPartition__Output | null);
  'barrier'?: (_weir_v1_CheckpointBarrier__Output | null);
  'cancelCheckpoint'?: (_weir_v1_CancelCheckpointMarker__Output | null);
  'endOfData'?: (_weir_v1_EndOfData__Output | null);
  'watermark'?: (_weir_v1_Watermark__Output | null);
  'watermarkStatus'?: (_weir_v1_WatermarkStatus__Output | null);
  'kind'?: "buffer"|"endOfPartition"|"barrier"|"cancelCheckpoint"|"endOfData"|"watermark"|"watermarkStatus";
}
