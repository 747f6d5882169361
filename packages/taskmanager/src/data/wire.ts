import type { ChannelItem, SubpartitionId } from '@weir/runtime';
import type { ProducerMessage, ProducerMessage__Output, SubscribeRequest, SubscribeRequest__Output } from '@weir/rpc';

export function toSubscribeRequest(id: SubpartitionId, initialCredit: number): SubscribeRequest {
  return {
    jobId: id.jobId,
    attempt: id.attempt,
    producerVertexId: id.producerVertexId,
    producerSubtask: id.producerSubtask,
    consumerVertexId: id.consumerVertexId,
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
    consumerSubtask: request.consumerSubtask,
  };
}

export function toProducerMessage(item: ChannelItem): ProducerMessage {
  if (item.kind === 'buffer') return { buffer: { payload: item.payload, recordCount: item.recordCount } };
  return { endOfPartition: {} };
}

/** The channel item a producer message carries, or undefined for a message with no known kind (a newer peer). */
export function fromProducerMessage(message: ProducerMessage__Output): ChannelItem | undefined {
  if (message.kind === 'buffer' && message.buffer) {
    return { kind: 'buffer', payload: message.buffer.payload, recordCount: message.buffer.recordCount };
  }
  if (message.kind === 'endOfPartition') return { kind: 'end-of-partition' };
  return undefined;
}
