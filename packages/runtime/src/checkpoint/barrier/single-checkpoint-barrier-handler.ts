import type { InputChannel } from '../../input/input-channel.ts';
import type { BarrierEvent } from '../../network/channel-events.ts';
import { WaitingForFirstBarrier } from './aligned-states.ts';
import type { AlignmentState, StateContext } from './alignment-state.ts';
import type { BarrierHandlerContext, CheckpointBarrierHandler } from './barrier-handler.ts';

/**
 * EXACTLY_ONCE, one checkpoint at a time. Aligned: the first barrier of checkpoint n blocks
 * its channel; the other channels keep flowing until each brings barrier n; then the task
 * snapshots, forwards the barrier and unblocks. Unaligned: the first barrier triggers the
 * snapshot at once, nothing blocks, and the buffers before each channel's barrier become input
 * channel state; with an aligned-checkpoint timeout it starts aligned and switches when the
 * timeout expires. The states are in aligned-states.ts and unaligned-states.ts.
 */
export class SingleCheckpointBarrierHandler implements CheckpointBarrierHandler {
  #state: AlignmentState = new WaitingForFirstBarrier(0);
  readonly #ctx: StateContext;

  constructor(ctx: BarrierHandlerContext) {
    const timeoutMs = ctx.unaligned?.alignedCheckpointTimeoutMs ?? 0;
    this.#ctx = {
      ...ctx,
      startAlignmentTimer: (checkpointId) =>
        ctx.schedule === undefined ? () => {} : ctx.schedule(timeoutMs, () => this.alignmentTimeout(checkpointId)),
    };
  }

  /** For tests and logs: the state's class name. */
  get stateName(): string {
    return this.#state.constructor.name;
  }

  processBarrier(channel: InputChannel, barrier: BarrierEvent): void {
    this.#state = this.#state.barrier(this.#ctx, channel, barrier);
  }

  processCancellation(channel: InputChannel, checkpointId: number): void {
    this.#state = this.#state.cancellation(this.#ctx, channel, checkpointId);
  }

  processEndOfPartition(channel: InputChannel): void {
    this.#state = this.#state.endOfPartition(this.#ctx, channel);
  }

  /** The aligned-checkpoint timeout of `checkpointId` expired (run on the task's loop). */
  alignmentTimeout(checkpointId: number): void {
    this.#state = this.#state.alignmentTimeout(this.#ctx, checkpointId);
  }
}
