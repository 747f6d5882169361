import { CheckpointFailureReason, type CheckpointOptions } from '@weir/common';
import type { BarrierEvent } from '../../network/channel-events.ts';
import type { InputChannel } from '../../input/input-channel.ts';
import { allOpenChannelsIn, type BarrierHandlerContext, type CheckpointBarrierHandler } from './barrier-handler.ts';

interface PendingCheckpoint {
  readonly checkpointId: number;
  readonly timestamp: number;
  readonly options: CheckpointOptions;
  readonly startedAt: number;
  readonly received: Set<InputChannel>;
}

/**
 * AT_LEAST_ONCE (Flink's CheckpointBarrierTracker): never blocks a channel, so records after
 * a barrier may be in the snapshot of the checkpoint before it (replayed twice after a
 * restore). Several checkpoints can be in flight; one triggers once its barrier came on every
 * open channel, and older ones still pending are then subsumed.
 */
export class BarrierTracker implements CheckpointBarrierHandler {
  /** Ascending by checkpoint ID. */
  readonly #pending: PendingCheckpoint[] = [];
  /** The highest checkpoint ID triggered or aborted here. */
  #latest = 0;

  constructor(private readonly ctx: BarrierHandlerContext) {}

  get pendingCheckpoints(): number[] {
    return this.#pending.map((p) => p.checkpointId);
  }

  processBarrier(channel: InputChannel, barrier: BarrierEvent): void {
    const { checkpointId, timestamp, options } = barrier;
    if (checkpointId <= this.#latest) return;
    let pending = this.#pending.find((p) => p.checkpointId === checkpointId);
    if (pending === undefined) {
      pending = { checkpointId, timestamp, options, startedAt: this.ctx.clock.now(), received: new Set() };
      this.#pending.push(pending);
      this.#pending.sort((a, b) => a.checkpointId - b.checkpointId);
    }
    pending.received.add(channel);
    this.#triggerComplete();
  }

  processCancellation(channel: InputChannel, checkpointId: number): void {
    if (checkpointId <= this.#latest) return;
    this.#subsumeBefore(checkpointId, `checkpoint ${checkpointId} was cancelled upstream first`);
    const at = this.#pending.findIndex((p) => p.checkpointId === checkpointId);
    if (at >= 0) this.#pending.splice(at, 1);
    this.#latest = checkpointId;
    this.ctx.actions.abortCheckpoint(
      checkpointId,
      CheckpointFailureReason.DECLINED,
      `checkpoint ${checkpointId} was cancelled upstream: ${channel.description} sent a cancel marker instead of its barrier`,
    );
  }

  processEndOfPartition(): void {
    this.#triggerComplete();
  }

  #triggerComplete(): void {
    for (let i = 0; i < this.#pending.length; ) {
      const pending = this.#pending[i]!;
      if (!allOpenChannelsIn(this.ctx.gate, pending.received)) {
        i++;
        continue;
      }
      this.#pending.splice(i, 1);
      this.#subsumeBefore(pending.checkpointId, `checkpoint ${pending.checkpointId} got all its barriers first`);
      this.#latest = pending.checkpointId;
      this.ctx.actions.triggerCheckpoint(pending.checkpointId, pending.timestamp, this.ctx.clock.now() - pending.startedAt, pending.options);
      i = 0;
    }
  }

  #subsumeBefore(checkpointId: number, why: string): void {
    while (this.#pending.length !== 0 && this.#pending[0]!.checkpointId < checkpointId) {
      const older = this.#pending.shift()!;
      this.#latest = Math.max(this.#latest, older.checkpointId);
      this.ctx.actions.abortCheckpoint(older.checkpointId, CheckpointFailureReason.SUBSUMED, `checkpoint ${older.checkpointId} was subsumed: ${why}`);
    }
  }
}
