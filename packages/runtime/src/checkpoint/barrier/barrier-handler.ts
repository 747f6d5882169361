import type { CheckpointFailureReason, Clock } from '@weir/common';
import type { InputChannel } from '../../input/input-channel.ts';
import type { InputGate } from '../../input/input-gate.ts';

/** What a barrier handler makes the task do. */
export interface CheckpointActions {
  /** Every open channel delivered the barrier: snapshot, then forward the barrier downstream. */
  triggerCheckpoint(checkpointId: number, timestamp: number, alignmentMs: number): void;
  /** Decline the checkpoint and send a cancel marker downstream instead of its barrier, so nobody waits for it. */
  abortCheckpoint(checkpointId: number, reason: CheckpointFailureReason, message: string): void;
}

export interface BarrierHandlerContext {
  readonly gate: InputGate;
  readonly clock: Clock;
  readonly actions: CheckpointActions;
}

/**
 * Decides, from the barriers and cancel markers coming in on the input channels, when the
 * task snapshots. A channel that delivered its end of partition counts as having delivered
 * every pending and future barrier; end of data does not (the channel stays open for the
 * final checkpoint's barrier).
 */
export interface CheckpointBarrierHandler {
  processBarrier(channel: InputChannel, checkpointId: number, timestamp: number): void;
  processCancellation(channel: InputChannel, checkpointId: number): void;
  /** Called after the gate marked the channel finished. */
  processEndOfPartition(channel: InputChannel): void;
}

/** Whether every channel that is still open is in `received`. */
export function allOpenChannelsIn(gate: InputGate, received: ReadonlySet<InputChannel>): boolean {
  for (const channel of gate.channels) if (!channel.finished && !received.has(channel)) return false;
  return true;
}
