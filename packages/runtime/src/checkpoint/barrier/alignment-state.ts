import type { InputChannel } from '../../input/input-channel.ts';
import type { BarrierEvent } from '../../network/channel-events.ts';
import type { BarrierHandlerContext } from './barrier-handler.ts';

/** The handler's context as its states see it. */
export interface StateContext extends BarrierHandlerContext {
  /** Arms the aligned-checkpoint timeout of `checkpointId`; returns a cancel function. */
  startAlignmentTimer(checkpointId: number): () => void;
}

/**
 * One state of the exactly-once barrier handler (Flink's SingleCheckpointBarrierHandler and
 * its BarrierHandlerState family): each event returns the next state. `latest` is the highest
 * checkpoint ID triggered or aborted here; barriers and markers of older checkpoints are ignored.
 */
export abstract class AlignmentState {
  constructor(readonly latest: number) {}
  abstract barrier(ctx: StateContext, channel: InputChannel, barrier: BarrierEvent): AlignmentState;
  abstract cancellation(ctx: StateContext, channel: InputChannel, checkpointId: number): AlignmentState;
  abstract endOfPartition(ctx: StateContext, channel: InputChannel): AlignmentState;
  /** The aligned-checkpoint timeout of `checkpointId` expired. */
  alignmentTimeout(_ctx: StateContext, _checkpointId: number): AlignmentState {
    return this;
  }
}

export function cancelledUpstream(channel: InputChannel, checkpointId: number): string {
  return `checkpoint ${checkpointId} was cancelled upstream: ${channel.description} sent a cancel marker instead of its barrier`;
}

/** An unaligned checkpoint may be taken for this barrier: unaligned is on, and it is no savepoint. */
export function mayGoUnaligned(ctx: StateContext, barrier: BarrierEvent): boolean {
  return ctx.unaligned !== undefined && barrier.options.type === 'checkpoint';
}
