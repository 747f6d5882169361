import type { ChannelItem, SubpartitionId } from '@weir/runtime';
import { decodeCheckpointOptions, encodeCheckpointOptions, type ProducerMessage, type ProducerMessage__Output, type SubscribeRequest, type SubscribeRequest__Output } from '@weir/rpc';

export function toSubscribeRequest(id: SubpartitionId, initialCredit: number, consumerDataAddress: string): SubscribeRequest {
  return {
    consumerDataAddress,
    jobId: id.jobId,
    attempt: id.attempt,
    producerVertexId: id.producerVertexId,
    producerSubtask: id.producerSubtask,
    consumerVertexId: id.consumerVertexId,
    consumerInput: id.consumerInput,
    consumerSubtask: id.consumerSubtask,
    initialCredit,
  };
}

export function fromSubscribeRequest(request: SubscribeRequest__Output): SubpartitionId {
  return {
    jobId: request.jobId,
    attempt: request.attempt,
    producerVertexId: request.producerVertexId,
    producerSubtask: request.producerSubtask,
    consumerVertexId: request.consumerVertexId,
    consumerInput: request.consumerInput,
    consumerSubtask: request.consumerSubtask,
  };
}

export function toProducerMessage(item: ChannelItem): ProducerMessage {
  switch (item.kind) {
    case 'buffer':
      return { buffer: { payload: item.payload, recordCount: item.recordCount } };
    case 'barrier': {
      const options = encodeCheckpointOptions(item.options);
      return { barrier: { checkpointId: item.checkpointId, timestampMs: item.timestamp, unaligned: item.unaligned, ...(options && { options }) } };
    }
    case 'cancel-checkpoint':
      return { cancelCheckpoint: { checkpointId: item.checkpointId } };
    case 'end-of-data':
      return { endOfData: {} };
    case 'end-of-partition':
      return { endOfPartition: {} };
    case 'watermark':
      return { watermark: { timestamp: item.timestamp } };
    case 'watermark-status':
      return { watermarkStatus: { idle: item.idle } };
  }
}

/** The channel item a producer message carries, or undefined for a message with no known kind (a newer peer). */
export function fromProducerMessage(message: ProducerMessage__Output): ChannelItem | undefined {
  if (message.kind === 'buffer' && message.buffer) {
    return { kind: 'buffer', payload: message.buffer.payload, recordCount: message.buffer.recordCount };
  }
  if (message.kind === 'barrier' && message.barrier) {
    const { checkpointId, timestampMs, options, unaligned } = message.barrier;
    return { kind: 'barrier', checkpointId, timestamp: timestampMs, options: decodeCheckpointOptions(options), unaligned };
  }
  if (message.kind === 'cancelCheckpoint' && message.cancelCheckpoint) {
    return { kind: 'cancel-checkpoint', checkpointId: message.cancelCheckpoint.checkpointId };
  }
  if (message.kind === 'endOfData') return { kind: 'end-of-data' };
  if (message.kind === 'watermark' && message.watermark) return { kind: 'watermark', timestamp: message.watermark.timestamp };
  if (message.kind === 'watermarkStatus' && message.watermarkStatus) return { kind: 'watermark-status', idle: message.watermarkStatus.idle };
  if (message.kind === 'endOfPartition') return { kind: 'end-of-partition' };
  return undefined;
}
