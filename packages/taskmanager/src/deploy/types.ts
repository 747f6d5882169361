import type { JobGraph, StreamGraph } from '@weir/api';
import type { CheckpointOptions, EnumeratorEvent } from '@weir/common';
import type { DeployTask__Output } from '@weir/rpc';
import type { TaskMetricsSample, TaskOptions } from '@weir/runtime';

/** The graphs a task needs, rebuilt from the job bundle with the deploy's args and defaults. */
export interface LoadedJob {
  readonly graph: StreamGraph;
  readonly jobGraph: JobGraph;
}

/** Rebuilds the job of a deploy; called once per task, so no two subtasks share function instances. */
export type JobLoader = (message: DeployTask__Output) => Promise<LoadedJob>;

/** What the TaskManager needs of a running task (@weir/runtime's Task). */
export interface RunnableTask {
  start(): void;
  cancel(): Promise<void>;
  triggerCheckpoint(checkpointId: number, timestamp: number, options: CheckpointOptions): void;
  notifyCheckpointComplete(checkpointId: number): void;
  notifyCheckpointAborted(checkpointId: number): void;
  /** The task's IO counters and time figures now. */
  sampleMetrics(ended?: boolean): TaskMetricsSample;
  dispatchOperatorEvent(operatorId: string, event: EnumeratorEvent): void;
}

export type TaskFactory = (options: TaskOptions) => RunnableTask;
