import { CheckpointFailureReason } from '@weir/common';
import type { InputChannel } from '../../input/input-channel.ts';
import type { BarrierEvent } from '../../network/channel-events.ts';
import type { BufferItem } from '../../network/types.ts';
import { PendingInputState } from '../channel-state/pending-input-state.ts';
import { startCheckpoint, WaitingForFirstBarrier } from './aligned-states.ts';
import { AlignmentState, cancelledUpstream, type StateContext } from './alignment-state.ts';
import { allOpenChannelsIn } from './barrier-handler.ts';

/**
 * An unaligned checkpoint was taken; no channel is blocked. Each channel that has not
 * delivered the barrier yet records its buffers up to the barrier (Flink's
 * ChannelStateWriter); once every open channel delivered it, the input channel state is complete.
 */
export class CollectingChannelState extends AlignmentState {
  constructor(
    readonly checkpointId: number,
    private readonly delivered: Set<InputChannel>,
    private readonly inputs: PendingInputState,
  ) {
    super(checkpointId);
  }

  barrier(ctx: StateContext, channel: InputChannel, barrier: BarrierEvent): AlignmentState {
    const { checkpointId } = barrier;
    if (checkpointId < this.checkpointId) return this;
    if (checkpointId === this.checkpointId) {
      // Its overtaken buffers were recorded as they arrived, or found queued when recording started.
      channel.takeOvertaken();
      return this.#delivered(ctx, channel);
    }
    this.#abandon(ctx);
    ctx.actions.abortCheckpoint(
      this.checkpointId,
      CheckpointFailureReason.SUBSUMED,
      `the barrier of checkpoint ${checkpointId} arrived from ${channel.description} before every channel delivered the barrier of unaligned checkpoint ${this.checkpointId}`,
    );
    return startCheckpoint(ctx, channel, barrier);
  }

  cancellation(ctx: StateContext, channel: InputChannel, checkpointId: number): AlignmentState {
    if (checkpointId < this.checkpointId) return this;
    this.#abandon(ctx);
    if (checkpointId !== this.checkpointId) {
      ctx.actions.abortCheckpoint(
        this.checkpointId,
        CheckpointFailureReason.SUBSUMED,
        `checkpoint ${checkpointId} was cancelled upstream (${channel.description}) before unaligned checkpoint ${this.checkpointId} collected its channel state`,
      );
    }
    ctx.actions.abortCheckpoint(checkpointId, CheckpointFailureReason.DECLINED, cancelledUpstream(channel, checkpointId));
    return new WaitingForFirstBarrier(checkpointId);
  }

  endOfPartition(ctx: StateContext, channel: InputChannel): AlignmentState {
    return this.#delivered(ctx, channel);
  }

  #delivered(ctx: StateContext, channel: InputChannel): AlignmentState {
    if (!this.delivered.has(channel)) {
      this.delivered.add(channel);
      this.inputs.add(channel.source, channel.recorded() ?? []);
      channel.stopRecording();
    }
    if (!allOpenChannelsIn(ctx.gate, this.delivered)) return this;
    this.inputs.complete();
    return new WaitingForFirstBarrier(this.checkpointId);
  }

  #abandon(ctx: StateContext): void {
    for (const channel of ctx.gate.channels) channel.stopRecording();
    this.inputs.abort();
  }
}

/**
 * Takes checkpoint `first.checkpointId` unaligned now. `delivered` are the channels whose
 * barrier was taken already, with the buffers that precede it and were not processed (an
 * unaligned barrier's overtaken buffers; none for a barrier taken in order); every other
 * open channel starts recording.
 */
export function startUnaligned(ctx: StateContext, first: BarrierEvent, alignmentMs: number, delivered: ReadonlyMap<InputChannel, readonly BufferItem[]>): AlignmentState {
  const inputs = new PendingInputState(first.checkpointId);
  for (const channel of ctx.gate.channels) {
    if (channel.finished) continue;
    const overtaken = delivered.get(channel);
    if (overtaken !== undefined) inputs.add(channel.source, overtaken);
    else channel.startRecording(first.checkpointId);
  }
  ctx.gate.unblockAll();
  ctx.actions.triggerUnalignedCheckpoint(first.checkpointId, first.timestamp, alignmentMs, first.options, inputs);
  const state = new CollectingChannelState(first.checkpointId, new Set(delivered.keys()), inputs);
  if (!allOpenChannelsIn(ctx.gate, delivered)) return state;
  inputs.complete();
  return new WaitingForFirstBarrier(first.checkpointId);
}
