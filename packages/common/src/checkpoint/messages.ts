import type { SubtaskKey } from '../subtask-key.ts';
import type { CheckpointFailureReason, CheckpointOptions, TaskStateSnapshot } from './types.ts';

/**
 * The checkpoint protocol between the JobManager and its tasks, as both roles see it: the
 * runtime produces acknowledgements and declines, the TaskManager puts them on its control
 * stream with the subtask they are about (`Addressed`), the JobManager reads them back. The
 * wire form and its one codec each way are in @weir/rpc (`src/control/`).
 */

/** A message about one subtask. */
export type Addressed<M> = M & { readonly task: SubtaskKey };

/** JobManager → task: take checkpoint `checkpointId` now (source tasks, and tasks whose input ended). */
export interface CheckpointTrigger {
  readonly checkpointId: number;
  readonly timestamp: number;
  readonly options: CheckpointOptions;
}

/** JobManager → every task: checkpoint `checkpointId` completed (sinks commit) or was aborted. */
export interface CheckpointNotification {
  readonly checkpointId: number;
  readonly completed: boolean;
}

/**
 * JobManager → task, inside DeployTask: the share of a checkpoint or savepoint the subtask
 * starts from (Flink's JobManagerTaskRestore).
 */
export interface RestoreShare {
  readonly checkpointId: number;
  readonly state: TaskStateSnapshot;
  /** URL of the directory holding the checkpoint's `_metadata`, which relative handle paths resolve against; empty when it lives in the JobManager's memory. */
  readonly checkpointPath: string;
}

/** What a task measured for one checkpoint. The wire carries whole milliseconds. */
export interface CheckpointMetrics {
  /** The synchronous part: operators' snapshotState, sink prepareCommit, capturing state. */
  readonly syncMs: number;
  /** Serializing and writing state. */
  readonly asyncMs: number;
  /** From the first barrier of the checkpoint to the last (0 for sources and single-channel tasks). */
  readonly alignmentMs: number;
  /** Full size of the snapshot: every byte its handles refer to, shared files of earlier incremental checkpoints included (Flink's state size). */
  readonly stateBytes: number;
  /** Bytes written for this checkpoint: an incremental one leaves out what earlier checkpoints uploaded (Flink's checkpointed size); equal to `stateBytes` for a full one. */
  readonly checkpointedBytes: number;
  /** The task took the checkpoint unaligned (from the start or after the aligned-checkpoint timeout). */
  readonly unaligned: boolean;
  /** Bytes of in-flight data saved as channel state. */
  readonly persistedBytes: number;
}

/** Task → JobManager: the task's snapshot for checkpoint `checkpointId` is durable. */
export interface CheckpointAck {
  readonly checkpointId: number;
  readonly state: TaskStateSnapshot;
  readonly metrics: CheckpointMetrics;
}

/**
 * Task → JobManager: the task will not complete checkpoint `checkpointId`. `message` says why
 * in the task's words, without naming the task: the JobManager names it once, as
 * `<task> declined checkpoint <n>: <message>`.
 */
export interface CheckpointDecline {
  readonly checkpointId: number;
  readonly reason: CheckpointFailureReason;
  readonly message: string;
}

/**
 * Task → JobManager, once: the task's input ended (operators finished, end of data went
 * downstream) and it waits for its final checkpoint (FLIP-147): any checkpoint above
 * `lastCheckpointBeforeEnd`, since it takes their snapshots after its end. Once every task
 * waits so (or finished), the JobManager triggers that checkpoint at once.
 */
export interface AwaitingFinalCheckpoint {
  /** The highest checkpoint ID whose snapshot the task took before its input ended; 0 for none. */
  readonly lastCheckpointBeforeEnd: number;
}

/** How a decline reads in logs, the checkpoint history and `weir checkpoints`: the task named once. */
export function declineSentence(task: string, decline: Pick<CheckpointDecline, 'checkpointId' | 'message'>): string {
  return `${task} declined checkpoint ${decline.checkpointId}: ${decline.message}`;
}
