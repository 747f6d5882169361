import { CheckpointFailureReason } from '@weir/common';
import type { InputChannel } from '../../input/input-channel.ts';
import { allOpenChannelsIn, type BarrierHandlerContext } from './barrier-handler.ts';

/**
 * Aligned exactly-once checkpoints (Flink's SingleCheckpointBarrierHandler): one class per
 * state, each event returns the next state. `latest` is the highest checkpoint ID triggered
 * or aborted here; barriers and markers of older checkpoints are ignored.
 */
export abstract class AlignmentState {
  constructor(readonly latest: number) {}
  abstract barrier(ctx: BarrierHandlerContext, channel: InputChannel, checkpointId: number, timestamp: number): AlignmentState;
  abstract cancellation(ctx: BarrierHandlerContext, channel: InputChannel, checkpointId: number): AlignmentState;
  abstract endOfPartition(ctx: BarrierHandlerContext): AlignmentState;
}

/** No checkpoint in progress: every channel flows. */
export class WaitingForFirstBarrier extends AlignmentState {
  barrier(ctx: BarrierHandlerContext, channel: InputChannel, checkpointId: number, timestamp: number): AlignmentState {
    if (checkpointId <= this.latest) return this;
    return startAlignment(ctx, channel, checkpointId, timestamp);
  }

  cancellation(ctx: BarrierHandlerContext, channel: InputChannel, checkpointId: number): AlignmentState {
    if (checkpointId <= this.latest) return this;
    ctx.actions.abortCheckpoint(checkpointId, CheckpointFailureReason.DECLINED, cancelledUpstream(channel, checkpointId));
    return new WaitingForFirstBarrier(checkpointId);
  }

  endOfPartition(): AlignmentState {
    return this;
  }
}

/** Some channels brought barrier `checkpointId` and are blocked; the others flow until they bring it too. */
export class Aligning extends AlignmentState {
  readonly #received = new Set<InputChannel>();

  constructor(
    latest: number,
    readonly checkpointId: number,
    private readonly timestamp: number,
    private readonly startedAt: number,
    first: InputChannel,
  ) {
    super(latest);
    this.#received.add(first);
  }

  barrier(ctx: BarrierHandlerContext, channel: InputChannel, checkpointId: number, timestamp: number): AlignmentState {
    if (checkpointId < this.checkpointId || checkpointId <= this.latest) return this;
    if (checkpointId === this.checkpointId) {
      this.#received.add(channel);
      const next = this.#completeIfAligned(ctx);
      if (next === this) ctx.gate.block(channel);
      return next;
    }
    ctx.gate.unblockAll();
    ctx.actions.abortCheckpoint(
      this.checkpointId,
      CheckpointFailureReason.SUBSUMED,
      `the barrier of checkpoint ${checkpointId} arrived from ${channel.description} while checkpoint ${this.checkpointId} was still aligning`,
    );
    return startAlignment(ctx, channel, checkpointId, timestamp);
  }

  cancellation(ctx: BarrierHandlerContext, channel: InputChannel, checkpointId: number): AlignmentState {
    if (checkpointId < this.checkpointId || checkpointId <= this.latest) return this;
    ctx.gate.unblockAll();
    if (checkpointId === this.checkpointId) {
      ctx.actions.abortCheckpoint(checkpointId, CheckpointFailureReason.DECLINED, cancelledUpstream(channel, checkpointId));
    } else {
      ctx.actions.abortCheckpoint(
        this.checkpointId,
        CheckpointFailureReason.SUBSUMED,
        `checkpoint ${checkpointId} was cancelled upstream (${channel.description}) while checkpoint ${this.checkpointId} was still aligning`,
      );
      ctx.actions.abortCheckpoint(checkpointId, CheckpointFailureReason.DECLINED, cancelledUpstream(channel, checkpointId));
    }
    return new WaitingForFirstBarrier(checkpointId);
  }

  endOfPartition(ctx: BarrierHandlerContext): AlignmentState {
    return this.#completeIfAligned(ctx);
  }

  #completeIfAligned(ctx: BarrierHandlerContext): AlignmentState {
    if (!allOpenChannelsIn(ctx.gate, this.#received)) return this;
    ctx.actions.triggerCheckpoint(this.checkpointId, this.timestamp, ctx.clock.now() - this.startedAt);
    ctx.gate.unblockAll();
    return new WaitingForFirstBarrier(this.checkpointId);
  }
}

/** The first barrier of a checkpoint: snapshot at once when no other channel is open (no alignment needed), else block its channel. */
function startAlignment(ctx: BarrierHandlerContext, channel: InputChannel, checkpointId: number, timestamp: number): AlignmentState {
  if (allOpenChannelsIn(ctx.gate, new Set([channel]))) {
    ctx.actions.triggerCheckpoint(checkpointId, timestamp, 0);
    return new WaitingForFirstBarrier(checkpointId);
  }
  ctx.gate.block(channel);
  return new Aligning(checkpointId - 1, checkpointId, timestamp, ctx.clock.now(), channel);
}

function cancelledUpstream(channel: InputChannel, checkpointId: number): string {
  return `checkpoint ${checkpointId} was cancelled upstream: ${channel.description} sent a cancel marker instead of its barrier`;
}
