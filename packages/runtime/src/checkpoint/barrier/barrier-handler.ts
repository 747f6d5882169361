import type { CheckpointFailureReason, CheckpointOptions, Clock } from '@weir/common';
import type { InputChannel } from '../../input/input-channel.ts';
import type { InputGate } from '../../input/input-gate.ts';
import type { BarrierEvent } from '../../network/channel-events.ts';
import type { PendingInputState } from '../channel-state/pending-input-state.ts';

/** What a barrier handler makes the task do. */
export interface CheckpointActions {
  /** Every open channel delivered the barrier: snapshot, then forward the barrier downstream in order. */
  triggerCheckpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions): void;
  /**
   * Snapshot now, before every channel delivered the barrier, and send the barrier downstream
   * ahead of the queued output; `inputs` completes with the input channel state once the
   * remaining barriers arrived.
   */
  triggerUnalignedCheckpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions, inputs: PendingInputState): void;
  /** Decline the checkpoint and send a cancel marker downstream instead of its barrier, so nobody waits for it. */
  abortCheckpoint(checkpointId: number, reason: CheckpointFailureReason, message: string): void;
}

/** How an exactly-once task may take checkpoints unaligned (execution.checkpointing.unaligned). */
export interface UnalignedSettings {
  /** 0: unaligned from the first barrier; else align first and switch to unaligned after this long. */
  readonly alignedCheckpointTimeoutMs: number;
}

export interface BarrierHandlerContext {
  readonly gate: InputGate;
  readonly clock: Clock;
  readonly actions: CheckpointActions;
  /** Undefined: every checkpoint is aligned. Savepoints are aligned either way. */
  readonly unaligned?: UnalignedSettings;
  /** Runs `action` on the task's own loop after `delayMs` (the aligned-checkpoint timeout); returns a cancel function. */
  schedule?(delayMs: number, action: () => void): () => void;
}

/**
 * Decides, from the barriers and cancel markers coming in on the input channels, when the
 * task snapshots. A channel that delivered its end of partition counts as having delivered
 * every pending and future barrier; end of data does not (the channel stays open for the
 * final checkpoint's barrier).
 */
export interface CheckpointBarrierHandler {
  processBarrier(channel: InputChannel, barrier: BarrierEvent): void;
  processCancellation(channel: InputChannel, checkpointId: number): void;
  /** Called after the gate marked the channel finished. */
  processEndOfPartition(channel: InputChannel): void;
}

/** Whether every channel that is still open is in `received`. */
export function allOpenChannelsIn(gate: InputGate, received: ReadonlySet<InputChannel> | ReadonlyMap<InputChannel, unknown>): boolean {
  for (const channel of gate.channels) if (!channel.finished && !received.has(channel)) return false;
  return true;
}
