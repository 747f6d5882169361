import type { ChannelItem } from './types.ts';

/** Everything on a channel that is not a record buffer: travels in order with the buffers, needs no credit. */
export type ChannelEvent = Exclude<ChannelItem, { kind: 'buffer' }>;

export const END_OF_PARTITION: ChannelEvent = Object.freeze({ kind: 'end-of-partition' });
export const END_OF_DATA: ChannelEvent = Object.freeze({ kind: 'end-of-data' });

export function barrierEvent(checkpointId: number, timestamp: number): ChannelEvent {
  return { kind: 'barrier', checkpointId, timestamp };
}

export function cancelCheckpointEvent(checkpointId: number): ChannelEvent {
  return { kind: 'cancel-checkpoint', checkpointId };
}
