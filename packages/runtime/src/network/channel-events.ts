import { CHECKPOINT_OPTIONS, type CheckpointOptions } from '@weir/common';
import type { ChannelItem } from './types.ts';

/** Everything on a channel that is not a record buffer: travels in order with the buffers, needs no credit. */
export type ChannelEvent = Exclude<ChannelItem, { kind: 'buffer' }>;

export type BarrierEvent = Extract<ChannelItem, { kind: 'barrier' }>;

export const END_OF_PARTITION: ChannelEvent = Object.freeze({ kind: 'end-of-partition' });
export const END_OF_DATA: ChannelEvent = Object.freeze({ kind: 'end-of-data' });

/** A barrier that travels in order behind the buffers before it. */
export function barrierEvent(checkpointId: number, timestamp: number, options: CheckpointOptions = CHECKPOINT_OPTIONS): BarrierEvent {
  return { kind: 'barrier', checkpointId, timestamp, options, unaligned: false };
}

/** A priority barrier: it overtakes the buffers queued before it, on the producer's side and on the consumer's. */
export function unalignedBarrierEvent(checkpointId: number, timestamp: number, options: CheckpointOptions = CHECKPOINT_OPTIONS): BarrierEvent {
  return { kind: 'barrier', checkpointId, timestamp, options, unaligned: true };
}

export function watermarkEvent(timestamp: number): ChannelEvent {
  return { kind: 'watermark', timestamp };
}

const IDLE: ChannelEvent = Object.freeze({ kind: 'watermark-status', idle: true });
const ACTIVE: ChannelEvent = Object.freeze({ kind: 'watermark-status', idle: false });

export function watermarkStatusEvent(idle: boolean): ChannelEvent {
  return idle ? IDLE : ACTIVE;
}

export function cancelCheckpointEvent(checkpointId: number): ChannelEvent {
  return { kind: 'cancel-checkpoint', checkpointId };
}
