import type { ListState, ListStateDescriptor } from '../state/types.ts';

/** What `CheckpointedFunction.snapshotState` is told (Flink's FunctionSnapshotContext). */
export interface FunctionSnapshotContext {
  readonly checkpointId: number;
  readonly checkpointTimestamp: number;
}

/** Operator (non-keyed) state: lists that are redistributed when parallelism changes. */
export interface OperatorStateStore {
  /** Split redistribution: on rescale the entries of all subtasks are dealt round-robin. */
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  /** Union redistribution: on rescale every subtask gets the entries of all subtasks. */
  getUnionListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
}

/** What `CheckpointedFunction.initializeState` gets (Flink's FunctionInitializationContext; no keyed state store here, unlike Flink). */
export interface FunctionInitializationContext {
  /** True when the task starts from a checkpoint or savepoint. */
  isRestored(): boolean;
  /** Where the function registers its operator list states. */
  getOperatorStateStore(): OperatorStateStore;
}

/**
 * A function with operator state of its own (Flink's CheckpointedFunction): `initializeState`
 * runs before `open`, on a fresh start and on restore; `snapshotState` runs in the
 * synchronous part of every checkpoint, so it should only update its ListStates.
 */
export interface CheckpointedFunction {
  /** Writes the function's state into its ListStates for this checkpoint. */
  snapshotState(context: FunctionSnapshotContext): void;
  /** Registers the function's ListStates, restored when `context.isRestored()`. */
  initializeState(context: FunctionInitializationContext): void;
}

/** Told when a checkpoint the function took part in completed or was aborted. */
export interface CheckpointListener {
  /** Checkpoint `checkpointId` completed (commit side effects here). */
  notifyCheckpointComplete(checkpointId: number): void | Promise<void>;
  /** Checkpoint `checkpointId` was aborted. */
  notifyCheckpointAborted?(checkpointId: number): void | Promise<void>;
}

/** Whether `fn` has both CheckpointedFunction methods. */
export function isCheckpointedFunction(fn: unknown): fn is CheckpointedFunction {
  return typeof fn === 'object' && fn !== null && typeof (fn as CheckpointedFunction).snapshotState === 'function' && typeof (fn as CheckpointedFunction).initializeState === 'function';
}

/** Whether `fn` has `notifyCheckpointComplete`. */
export function isCheckpointListener(fn: unknown): fn is CheckpointListener {
  return typeof fn === 'object' && fn !== null && typeof (fn as CheckpointListener).notifyCheckpointComplete === 'function';
}
