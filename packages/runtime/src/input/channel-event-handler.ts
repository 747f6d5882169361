import type { ChannelItem } from '../network/types.ts';
import type { InputChannel } from './input-channel.ts';
import type { InputGate } from './input-gate.ts';

export type ChannelEvent = Exclude<ChannelItem, { kind: 'buffer' }>;

/**
 * Sees every event taken from a channel, in channel order, before the operators see the
 * records after it. This is the seat of the checkpoint barrier handler: it may block a
 * channel (aligned), or look at the buffers still queued (unaligned).
 */
export interface ChannelEventHandler {
  onEvent(channel: InputChannel, event: ChannelEvent): void;
}

/** The only event so far: end of partition finishes its channel. */
export class EndOfPartitionHandler implements ChannelEventHandler {
  constructor(private readonly gate: InputGate) {}

  onEvent(channel: InputChannel, event: ChannelEvent): void {
    if (event.kind === 'end-of-partition') this.gate.channelFinished(channel);
  }
}
