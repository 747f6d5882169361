import { CheckpointFailureReason } from '@weir/common';
import type { InputChannel } from '../../input/input-channel.ts';
import type { BarrierEvent } from '../../network/channel-events.ts';
import { AlignmentState, cancelledUpstream, mayGoUnaligned, type StateContext } from './alignment-state.ts';
import { allOpenChannelsIn } from './barrier-handler.ts';
import { startUnaligned } from './unaligned-states.ts';

/** No checkpoint in progress: every channel flows. */
export class WaitingForFirstBarrier extends AlignmentState {
  barrier(ctx: StateContext, channel: InputChannel, barrier: BarrierEvent): AlignmentState {
    if (barrier.checkpointId <= this.latest) return this;
    return startCheckpoint(ctx, channel, barrier);
  }

  cancellation(ctx: StateContext, channel: InputChannel, checkpointId: number): AlignmentState {
    if (checkpointId <= this.latest) return this;
    ctx.actions.abortCheckpoint(checkpointId, CheckpointFailureReason.DECLINED, cancelledUpstream(channel, checkpointId));
    return new WaitingForFirstBarrier(checkpointId);
  }

  endOfPartition(): AlignmentState {
    return this;
  }
}

/**
 * Some channels brought the barrier and are blocked; the others flow until they bring it too.
 * With unaligned checkpoints and an aligned-checkpoint timeout, the alignment switches to
 * unaligned when the timeout expires or an unaligned barrier of the checkpoint arrives.
 */
export class Aligning extends AlignmentState {
  readonly #received = new Set<InputChannel>();

  constructor(
    latest: number,
    readonly first: BarrierEvent,
    private readonly startedAt: number,
    channel: InputChannel,
    private readonly cancelTimeout: () => void,
  ) {
    super(latest);
    this.#received.add(channel);
  }

  get checkpointId(): number {
    return this.first.checkpointId;
  }

  barrier(ctx: StateContext, channel: InputChannel, barrier: BarrierEvent): AlignmentState {
    const { checkpointId } = barrier;
    if (checkpointId < this.checkpointId || checkpointId <= this.latest) return this;
    if (checkpointId === this.checkpointId) {
      if (barrier.unaligned && mayGoUnaligned(ctx, barrier)) {
        this.cancelTimeout();
        const delivered = new Map<InputChannel, ReturnType<InputChannel['takeOvertaken']>>([...this.#received].map((c) => [c, []]));
        delivered.set(channel, channel.takeOvertaken());
        return startUnaligned(ctx, this.first, ctx.clock.now() - this.startedAt, delivered);
      }
      this.#received.add(channel);
      const next = this.#completeIfAligned(ctx);
      if (next === this) ctx.gate.block(channel);
      return next;
    }
    this.#leave(ctx);
    ctx.actions.abortCheckpoint(
      this.checkpointId,
      CheckpointFailureReason.SUBSUMED,
      `the barrier of checkpoint ${checkpointId} arrived from ${channel.description} while checkpoint ${this.checkpointId} was still aligning`,
    );
    return startCheckpoint(ctx, channel, barrier);
  }

  cancellation(ctx: StateContext, channel: InputChannel, checkpointId: number): AlignmentState {
    if (checkpointId < this.checkpointId || checkpointId <= this.latest) return this;
    this.#leave(ctx);
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

  endOfPartition(ctx: StateContext): AlignmentState {
    return this.#completeIfAligned(ctx);
  }

  override alignmentTimeout(ctx: StateContext, checkpointId: number): AlignmentState {
    if (checkpointId !== this.checkpointId) return this;
    const delivered = new Map<InputChannel, ReturnType<InputChannel['takeOvertaken']>>([...this.#received].map((c) => [c, []]));
    return startUnaligned(ctx, this.first, ctx.clock.now() - this.startedAt, delivered);
  }

  #completeIfAligned(ctx: StateContext): AlignmentState {
    if (!allOpenChannelsIn(ctx.gate, this.#received)) return this;
    this.cancelTimeout();
    const { checkpointId, timestamp, options } = this.first;
    ctx.actions.triggerCheckpoint(checkpointId, timestamp, ctx.clock.now() - this.startedAt, options);
    ctx.gate.unblockAll();
    return new WaitingForFirstBarrier(checkpointId);
  }

  #leave(ctx: StateContext): void {
    this.cancelTimeout();
    ctx.gate.unblockAll();
  }
}

/**
 * The first barrier of a checkpoint. Unaligned at once when the barrier is unaligned or no
 * aligned phase is configured; else a snapshot at once when no other channel is open (no
 * alignment needed), else block its channel and align, with the aligned-checkpoint timeout
 * armed when the checkpoint may go unaligned.
 */
export function startCheckpoint(ctx: StateContext, channel: InputChannel, barrier: BarrierEvent): AlignmentState {
  const { checkpointId, timestamp, options } = barrier;
  const unaligned = mayGoUnaligned(ctx, barrier);
  if (unaligned && (barrier.unaligned || ctx.unaligned!.alignedCheckpointTimeoutMs === 0)) {
    return startUnaligned(ctx, barrier, 0, new Map([[channel, channel.takeOvertaken()]]));
  }
  if (allOpenChannelsIn(ctx.gate, new Set([channel]))) {
    ctx.actions.triggerCheckpoint(checkpointId, timestamp, 0, options);
    return new WaitingForFirstBarrier(checkpointId);
  }
  ctx.gate.block(channel);
  const cancelTimeout = unaligned ? ctx.startAlignmentTimer(checkpointId) : () => {};
  return new Aligning(checkpointId - 1, barrier, ctx.clock.now(), channel, cancelTimeout);
}
