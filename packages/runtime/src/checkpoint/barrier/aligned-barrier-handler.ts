import type { InputChannel } from '../../input/input-channel.ts';
import { WaitingForFirstBarrier, type AlignmentState } from './aligned-states.ts';
import type { BarrierHandlerContext, CheckpointBarrierHandler } from './barrier-handler.ts';

/**
 * EXACTLY_ONCE, aligned: the first barrier of checkpoint n blocks its channel; the other
 * channels keep flowing until each brings barrier n; then the task snapshots, forwards the
 * barrier and unblocks. The states are in aligned-states.ts.
 */
export class AlignedBarrierHandler implements CheckpointBarrierHandler {
  #state: AlignmentState = new WaitingForFirstBarrier(0);

  constructor(private readonly ctx: BarrierHandlerContext) {}

  /** For tests and logs: the state's class name. */
  get stateName(): string {
    return this.#state.constructor.name;
  }

  processBarrier(channel: InputChannel, checkpointId: number, timestamp: number): void {
    this.#state = this.#state.barrier(this.ctx, channel, checkpointId, timestamp);
  }

  processCancellation(channel: InputChannel, checkpointId: number): void {
    this.#state = this.#state.cancellation(this.ctx, channel, checkpointId);
  }

  processEndOfPartition(): void {
    this.#state = this.#state.endOfPartition(this.ctx);
  }
}
