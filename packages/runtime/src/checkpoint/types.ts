import type { CheckpointFailureReason, TaskStateSnapshot } from '@weir/common';
import type { Storage } from '@weir/storage';

/** How a task takes part in checkpoints; from DeployTask.checkpointing. */
export interface TaskCheckpointing {
  mode: 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';
  backend: 'memory' | 'filesystem';
  /** The job's checkpoint directory; task files go to `chk-<n>/...` below it. Undefined for the memory backend. */
  storage: Storage | undefined;
  /** The memory backend's limit per state handle (the bytes one operator's keyed or operator state may take inline). */
  maxInlineBytes: number;
  /** False: serialize and write state before the barrier goes downstream. */
  asyncSnapshots: boolean;
}

/** The task's share of the checkpoint it starts from; from DeployTask.restore. */
export interface TaskRestore {
  checkpointId: number;
  state: TaskStateSnapshot;
  /** the checkpoint directory (holds _metadata); relative handle paths resolve here */
  storage: Storage | undefined;
}

export interface CheckpointMetrics {
  /** The synchronous part: operators' snapshotState, sink prepareCommit, capturing state. */
  syncMs: number;
  /** Serializing and writing state. */
  asyncMs: number;
  /** From the first barrier of the checkpoint to the last (0 for sources and single-channel tasks). */
  alignmentMs: number;
  /** Bytes of all state handles. */
  stateBytes: number;
}

export interface CheckpointAck {
  checkpointId: number;
  state: TaskStateSnapshot;
  metrics: CheckpointMetrics;
}

export interface CheckpointDecline {
  checkpointId: number;
  reason: CheckpointFailureReason;
  message: string;
}
