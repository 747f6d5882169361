import { TaskState, type AwaitingFinalCheckpoint, type CheckpointAck, type CheckpointDecline, type CheckpointOptions, type EnumeratorEvent, type ReaderEvent } from '@weir/common';
import type { TaskMetricsSample, TaskOptions } from '@weir/runtime';
import type { RunnableTask, TaskFactory } from '../deploy/types.ts';

/** A checkpoint command the task double received. */
export type CheckpointCall =
  | { readonly call: 'trigger'; readonly checkpointId: number; readonly timestamp: number; readonly options: CheckpointOptions }
  | { readonly call: 'complete' | 'abort'; readonly checkpointId: number };

/** A task that has done nothing yet, as sampleMetrics reports it. */
export const ZERO_METRICS: TaskMetricsSample = {
  numRecordsIn: 0,
  numBytesIn: 0,
  numRecordsOut: 0,
  numBytesOut: 0,
  idleTimeMs: 0,
  backPressuredTimeMs: 0,
  runningTimeMs: 0,
  inputQueueLength: 0,
  outputQueueLength: 0,
  inPoolUsage: 0,
  outPoolUsage: 0,
  currentInputWatermark: Number.NEGATIVE_INFINITY,
  operators: [],
};

/**
 * A task double: start reports INITIALIZING and RUNNING; the test finishes or fails it;
 * cancel reports CANCELED; checkpoint commands are recorded, and acknowledgements and
 * declines go out through the options' callbacks as the runtime's would.
 */
export class FakeTask implements RunnableTask {
  readonly options: TaskOptions;
  readonly checkpointCalls: CheckpointCall[] = [];
  /** Enumerator events dispatched to the task, in order. */
  readonly operatorEvents: { operatorId: string; event: EnumeratorEvent }[] = [];
  started = false;
  cancelled = false;
  /** What sampleMetrics answers; tests set the counters they need. */
  metrics: TaskMetricsSample = ZERO_METRICS;

  constructor(options: TaskOptions) {
    this.options = options;
  }

  start(): void {
    this.started = true;
    this.options.onStateChange({ state: TaskState.INITIALIZING });
    this.options.onStateChange({ state: TaskState.RUNNING });
  }

  sampleMetrics(): TaskMetricsSample {
    return this.metrics;
  }

  finish(): void {
    this.options.onStateChange({ state: TaskState.FINISHED });
  }

  fail(message: string, code: string): void {
    this.options.onStateChange({ state: TaskState.FAILED, failure: { message, code } });
  }

  triggerCheckpoint(checkpointId: number, timestamp: number, options: CheckpointOptions): void {
    this.checkpointCalls.push({ call: 'trigger', checkpointId, timestamp, options });
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.checkpointCalls.push({ call: 'complete', checkpointId });
  }

  notifyCheckpointAborted(checkpointId: number): void {
    this.checkpointCalls.push({ call: 'abort', checkpointId });
  }

  dispatchOperatorEvent(operatorId: string, event: EnumeratorEvent): void {
    this.operatorEvents.push({ operatorId, event });
  }

  /** A reader event, sent as a split source's reader would. */
  readerEvent(operatorId: string, event: ReaderEvent): void {
    this.options.onOperatorEvent?.(operatorId, event);
  }

  acknowledge(ack: CheckpointAck): void {
    this.options.onCheckpointAck?.(ack);
  }

  decline(decline: CheckpointDecline): void {
    this.options.onCheckpointDecline?.(decline);
  }

  awaitFinalCheckpoint(message: AwaitingFinalCheckpoint): void {
    this.options.onAwaitingFinalCheckpoint?.(message);
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    this.options.onStateChange({ state: TaskState.CANCELING });
    this.options.onStateChange({ state: TaskState.CANCELED });
  }
}

export function fakeTaskFactory(): { tasks: FakeTask[]; createTask: TaskFactory } {
  const tasks: FakeTask[] = [];
  return {
    tasks,
    createTask: (options) => {
      const task = new FakeTask(options);
      tasks.push(task);
      return task;
    },
  };
}
