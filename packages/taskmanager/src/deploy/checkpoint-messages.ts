import type { AcknowledgeCheckpoint, DeclineCheckpoint, TaskKey__Output } from '@weir/rpc';
import type { CheckpointAck, CheckpointDecline } from '@weir/runtime';

/** A task's acknowledgement as it goes to the JobManager: the snapshot as JSON bytes, the figures as whole numbers. */
export function toAcknowledgeCheckpoint(key: TaskKey__Output, ack: CheckpointAck): AcknowledgeCheckpoint {
  return {
    task: key,
    checkpointId: ack.checkpointId,
    state: Buffer.from(JSON.stringify(ack.state), 'utf8'),
    metrics: {
      // The proto carries whole milliseconds; the runtime measures with fractions.
      syncMs: Math.round(ack.metrics.syncMs),
      asyncMs: Math.round(ack.metrics.asyncMs),
      alignmentMs: Math.round(ack.metrics.alignmentMs),
      stateBytes: ack.metrics.stateBytes,
      unaligned: ack.metrics.unaligned,
      persistedBytes: ack.metrics.persistedBytes,
    },
  };
}

export function toDeclineCheckpoint(key: TaskKey__Output, decline: CheckpointDecline): DeclineCheckpoint {
  return { task: key, checkpointId: decline.checkpointId, reasonCode: decline.reason, message: decline.message };
}
