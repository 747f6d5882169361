import {
  CheckpointFailureReason,
  describeError,
  isTerminalTaskState,
  TaskState,
  type AwaitingFinalCheckpoint,
  type CheckpointAck,
  type CheckpointDecline,
  type EnumeratorEvent,
  type Logger,
  type ReaderEvent,
} from '@weir/common';
import { decodeTaskKey, decodeTrigger, encodeAck, encodeAwaitingFinalCheckpoint, encodeDecline, encodeReaderEvent, type TaskKey__Output, type TriggerCheckpoint__Output } from '@weir/rpc';
import type { TaskMetricsSample, TaskStateChange } from '@weir/runtime';
import type { TaskReporter } from '../control/context.ts';
import type { MeasuredTask } from '../metrics/task-metrics-tracker.ts';
import type { RunnableTask } from './types.ts';

/**
 * One deployed task as the TaskManager tracks it: preparing (bundle, graph), then running
 * (a RunnableTask), then terminal. Forwards each state once, and its checkpoint
 * acknowledgements and declines, to the JobManager; passes checkpoint commands to the task.
 */
export class DeployedTask implements MeasuredTask {
  readonly key: TaskKey__Output;
  readonly jobName: string;
  readonly logger: Logger;
  readonly #reporter: TaskReporter;
  readonly #onTerminal: () => void;
  #task: RunnableTask | undefined;
  #vertexName: string;
  #lastState: TaskState | undefined;

  constructor(key: TaskKey__Output, jobName: string, logger: Logger, reporter: TaskReporter, onTerminal: () => void) {
    this.key = key;
    this.jobName = jobName;
    this.#vertexName = key.vertexId;
    this.logger = logger;
    this.#reporter = reporter;
    this.#onTerminal = onTerminal;
  }

  get isTerminal(): boolean {
    return this.#lastState !== undefined && isTerminalTaskState(this.#lastState);
  }

  /** The vertex's name once the job graph is loaded; its ID before. */
  get vertexName(): string {
    return this.#vertexName;
  }

  /** The prepared task of vertex `vertexName`; the caller starts it. */
  attach(task: RunnableTask, vertexName: string): void {
    this.#task = task;
    this.#vertexName = vertexName;
  }

  sample(ended = false): TaskMetricsSample | undefined {
    return this.#task?.sampleMetrics(ended);
  }

  onStateChange(change: TaskStateChange): void {
    // The TaskManager reports DEPLOYING itself, and the task may too: report each state once.
    if (this.isTerminal || change.state === this.#lastState) return;
    this.#lastState = change.state;
    this.#reporter.status({
      task: this.key,
      state: change.state,
      failureCause: change.failure?.message ?? '',
      failureCode: change.failure?.code ?? '',
    });
    if (isTerminalTaskState(change.state)) this.#onTerminal();
  }

  /** A trigger as the JobManager sent it: maybe a savepoint, maybe ending the job (stop-with-savepoint). One the task cannot take is declined. */
  triggerCheckpoint(message: TriggerCheckpoint__Output): void {
    const { checkpointId } = message;
    this.logger.debug({ checkpointId, options: message.options }, 'checkpoint triggered');
    if (this.#task === undefined) {
      this.declineCheckpoint({
        checkpointId,
        reason: CheckpointFailureReason.TASK_NOT_READY,
        message: `the task is still being deployed (${this.#lastState ?? TaskState.DEPLOYING}); checkpoints are triggered only while every task runs`,
      });
      return;
    }
    try {
      const trigger = decodeTrigger(message);
      if (typeof trigger === 'string') this.logger.warn({ checkpointId }, `ignored a checkpoint trigger: ${trigger}`);
      else this.#task.triggerCheckpoint(trigger.checkpointId, trigger.timestamp, trigger.options);
    } catch (error) {
      // Thrown out of the control stream's handler it would end the process, and every other task.
      this.logger.error({ err: error, checkpointId }, 'triggering a checkpoint failed');
      this.declineCheckpoint({
        checkpointId,
        reason: CheckpointFailureReason.DECLINED,
        message: `triggering checkpoint ${checkpointId} failed: ${describeError(error)}`,
      });
    }
  }

  notifyCheckpoint(checkpointId: number, completed: boolean): void {
    this.logger.debug({ checkpointId, completed }, completed ? 'checkpoint completed' : 'checkpoint aborted');
    if (this.#task === undefined) return;
    try {
      if (completed) this.#task.notifyCheckpointComplete(checkpointId);
      else this.#task.notifyCheckpointAborted(checkpointId);
    } catch (error) {
      this.logger.error({ err: error, checkpointId, completed }, 'notifying the task of a checkpoint failed');
    }
  }

  /** A reader of the task's split source `operatorId` talks to its enumerator. */
  sendOperatorEvent(operatorId: string, event: ReaderEvent): void {
    this.#reporter.operatorEvent(encodeReaderEvent({ task: decodeTaskKey(this.key), operatorId, event }));
  }

  /** The enumerator of split source `operatorId` answers; a task still being deployed has no reader yet to take it. */
  dispatchOperatorEvent(operatorId: string, event: EnumeratorEvent): void {
    if (this.#task === undefined) {
      this.logger.warn({ operatorId, kind: event.kind }, 'ignored an enumerator event for a task still being deployed');
      return;
    }
    this.#task.dispatchOperatorEvent(operatorId, event);
  }

  acknowledgeCheckpoint(ack: CheckpointAck): void {
    this.logger.debug({ checkpointId: ack.checkpointId, ...ack.metrics }, 'acknowledging checkpoint');
    this.#reporter.acknowledgeCheckpoint(encodeAck({ ...ack, task: decodeTaskKey(this.key) }));
  }

  awaitingFinalCheckpoint(message: AwaitingFinalCheckpoint): void {
    this.logger.debug({ lastCheckpointBeforeEnd: message.lastCheckpointBeforeEnd }, 'input ended, awaiting the final checkpoint');
    this.#reporter.awaitingFinalCheckpoint(encodeAwaitingFinalCheckpoint({ ...message, task: decodeTaskKey(this.key) }));
  }

  declineCheckpoint(decline: CheckpointDecline): void {
    this.logger.info({ checkpointId: decline.checkpointId, reason: decline.reason, detail: decline.message }, 'declining checkpoint');
    this.#reporter.declineCheckpoint(encodeDecline({ ...decline, task: decodeTaskKey(this.key) }));
  }

  /** Resolves once the task is terminal; a task still preparing is CANCELED at once and never starts. */
  async cancel(): Promise<void> {
    if (this.isTerminal) return;
    if (this.#task === undefined) {
      this.onStateChange({ state: TaskState.CANCELED });
      return;
    }
    try {
      await this.#task.cancel();
    } catch (error) {
      this.logger.warn({ err: error }, 'cancelling the task failed');
    }
  }
}
