import type { CheckpointBarrierHandler } from '../checkpoint/barrier/barrier-handler.ts';
import type { ChannelEvent } from '../network/channel-events.ts';
import type { InputChannel } from './input-channel.ts';
import type { InputGate } from './input-gate.ts';
import type { StatusWatermarkValve } from '../time/status-watermark-valve.ts';

export type { ChannelEvent };

/**
 * Sees every event taken from a channel, in channel order, before the operators see the
 * records after it. This is the seat of the checkpoint barrier handler: it may block a
 * channel (aligned), or look at the buffers still queued (unaligned).
 */
export interface ChannelEventHandler {
  onEvent(channel: InputChannel, event: ChannelEvent): void;
}

/**
 * Ends channels in the gate, hands checkpoint events to the barrier handler (none when
 * checkpointing is off) and watermarks and idleness to the task's watermark valve.
 */
export class TaskEventHandler implements ChannelEventHandler {
  constructor(
    private readonly gate: InputGate,
    private readonly barriers: CheckpointBarrierHandler | undefined,
    private readonly valve: StatusWatermarkValve,
  ) {}

  onEvent(channel: InputChannel, event: ChannelEvent): void {
    switch (event.kind) {
      case 'end-of-data':
        this.gate.channelDataEnded(channel);
        return;
      case 'end-of-partition':
        this.gate.channelFinished(channel);
        this.barriers?.processEndOfPartition(channel);
        return;
      case 'barrier':
        this.barriers?.processBarrier(channel, event);
        return;
      case 'cancel-checkpoint':
        this.barriers?.processCancellation(channel, event.checkpointId);
        return;
      case 'watermark':
        this.valve.inputWatermark(event.timestamp, channel.index);
        return;
      case 'watermark-status':
        this.valve.inputWatermarkStatus(event.idle, channel.index);
        return;
    }
  }
}
