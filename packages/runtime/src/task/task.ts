import type { JobGraph, StreamGraph } from '@weir/api';
import {
  CHECKPOINT_OPTIONS,
  isTerminalTaskState,
  isWeirError,
  WeirError,
  CommonErrorCode,
  TaskState,
  type AwaitingFinalCheckpoint,
  type CheckpointAck,
  type CheckpointDecline,
  type CheckpointOptions,
  type Clock,
  type EnumeratorEvent,
  type Logger,
  type ReaderEvent,
} from '@weir/common';
import type { TaskCheckpointing, TaskRestore } from '../checkpoint/types.ts';
import type { TaskStateBackend } from '../state/task-state-backend.ts';
import { RuntimeErrorCode } from '../errors.ts';
import type { NetworkEnvironment } from '../network/types.ts';
import type { TaskDeploymentDescriptor, TaskStateChange } from './deployment.ts';
import { Deploying, type LifecycleState } from './lifecycle.ts';
import type { TaskMetricsSample } from '../metrics/task-io-metrics.ts';
import { TaskRuntime, type TaskNetworkStats } from './task-runtime.ts';

export interface TaskOptions {
  deployment: TaskDeploymentDescriptor;
  /** Rebuilt by the TaskManager from the job bundle. */
  graph: StreamGraph;
  /** Defaults to buildJobGraph(graph). */
  jobGraph?: JobGraph;
  network: NetworkEnvironment;
  logger: Logger;
  clock?: Clock;
  /** DEPLOYING (the initial state, not reported) -> INITIALIZING -> RUNNING -> FINISHED | FAILED; CANCELING -> CANCELED on cancel. */
  onStateChange(change: TaskStateChange): void;
  /** Undefined: checkpointing is off (end of input ends the task at once). */
  checkpointing?: TaskCheckpointing;
  /** Where keyed state lives, with or without checkpointing; the heap when undefined. A LevelDB snapshot (checkpointing.backend level) needs the level backend. */
  stateBackend?: TaskStateBackend;
  /** The state to start from. */
  restore?: TaskRestore;
  /** The task took checkpoint `ack.checkpointId`; called on the event loop, after the barrier went downstream. */
  onCheckpointAck?(ack: CheckpointAck): void;
  /** The task's input ended and it waits for its final checkpoint (once, with checkpointing); called on the event loop. */
  onAwaitingFinalCheckpoint?(message: AwaitingFinalCheckpoint): void;
  /** The task will not complete a checkpoint (never called re-entrantly from triggerCheckpoint). */
  onCheckpointDecline?(decline: CheckpointDecline): void;
  /** A split source's reader sends an event to the enumerator of operator `operatorId`. */
  onOperatorEvent?(operatorId: string, event: ReaderEvent): void;
}

class TaskCanceled extends Error {}

/** One subtask: its operator chain, inputs and outputs, run on this process's event loop. */
export class Task {
  #lifecycle: LifecycleState = new Deploying();
  readonly #runtime: TaskRuntime;
  readonly #options: TaskOptions;
  readonly #canceled: Promise<never>;
  #signalCancel: ((reason: TaskCanceled) => void) | undefined;
  readonly #terminated: Promise<void>;
  #signalTerminated: (() => void) | undefined;
  /** Set by failExternally: the task stops as a cancel would, then reports FAILED with it. */
  #externalFailure: WeirError | undefined;

  constructor(options: TaskOptions) {
    this.#options = options;
    this.#canceled = new Promise<never>((_, reject) => (this.#signalCancel = reject));
    this.#canceled.catch(() => {});
    this.#terminated = new Promise((resolve) => (this.#signalTerminated = resolve));
    this.#runtime = new TaskRuntime(options, (promise) => Promise.race([promise, this.#canceled]));
  }

  get state(): TaskState {
    return this.#lifecycle.state;
  }

  /** The task's input watermark: -Infinity before the first (a source task's: the one its reader output emitted last). */
  get currentInputWatermark(): number {
    return this.#runtime.currentInputWatermark;
  }

  /** Buffer counts of this task's channels, for tests and metrics. */
  get networkStats(): TaskNetworkStats {
    return this.#runtime.stats;
  }

  /** The task's IO counters and time figures now (Flink's task metrics, before rates). */
  sampleMetrics(ended = false): TaskMetricsSample {
    return this.#runtime.sampleMetrics(ended);
  }

  /**
   * Source tasks: take checkpoint `checkpointId` between two records (a savepoint with
   * `options.terminate` also ends the source: see TaskRuntime.triggerCheckpoint). Other tasks, or a task
   * that is not RUNNING, decline it with CHECKPOINT_TASK_NOT_READY.
   */
  triggerCheckpoint(checkpointId: number, timestamp: number, options: CheckpointOptions = CHECKPOINT_OPTIONS): void {
    if (this.state === TaskState.RUNNING) this.#runtime.triggerCheckpoint(checkpointId, timestamp, options);
    else this.#runtime.declineNotReady(checkpointId, `it is ${this.state}`);
  }

  /** Checkpoint `checkpointId` completed: sinks commit, CheckpointListeners are told, a finishing task may end. */
  notifyCheckpointComplete(checkpointId: number): void {
    if (this.state === TaskState.RUNNING) this.#runtime.notifyCheckpointComplete(checkpointId);
  }

  notifyCheckpointAborted(checkpointId: number): void {
    if (this.state === TaskState.RUNNING) this.#runtime.notifyCheckpointAborted(checkpointId);
  }

  /** An event from the enumerator of split source `operatorId`; dropped once the task ended. */
  dispatchOperatorEvent(operatorId: string, event: EnumeratorEvent): void {
    if (!isTerminalTaskState(this.state)) this.#runtime.dispatchOperatorEvent(operatorId, event);
  }

  /** Runs the task asynchronously to its end; never throws: a failure is reported as FAILED. */
  start(): void {
    if (!this.#transition((s) => s.start())) return;
    void this.#run();
  }

  /** Resolves once the task is CANCELED, or at once when it already ended. */
  cancel(): Promise<void> {
    if (isTerminalTaskState(this.state)) return this.#terminated;
    const reason = new TaskCanceled('task canceled');
    this.#signalCancel!(reason);
    this.#transition((s) => s.cancelRequested());
    this.#runtime.cancel(reason);
    return this.#terminated;
  }

  /**
   * Fails the task from outside (Flink's Task.failExternally): it stops as a cancel does, then
   * reports FAILED with `cause`, so whoever runs the job fails it over. Ignored once it ended.
   */
  failExternally(cause: WeirError): void {
    if (isTerminalTaskState(this.state) || this.#externalFailure !== undefined) return;
    this.#externalFailure = cause;
    const reason = new TaskCanceled(cause.message);
    this.#signalCancel!(reason);
    this.#runtime.cancel(reason);
  }

  async #run(): Promise<void> {
    let failure: unknown;
    let finished = false;
    try {
      await this.#runtime.setUp();
      this.#transition((s) => s.initialized());
      finished = (await this.#runtime.run()) === 'finished';
    } catch (err) {
      failure = err;
      if (isWeirError(err, RuntimeErrorCode.PRODUCER_CANCELED)) this.#transition((s) => s.cancelRequested());
    }
    if (this.#externalFailure !== undefined && this.state !== 'CANCELING') {
      failure = this.#externalFailure;
      finished = false;
    }
    const canceling = this.state === 'CANCELING';
    try {
      await this.#runtime.tearDown(finished ? undefined : this.#releaseCause(canceling, failure));
    } catch (err) {
      this.#options.logger.warn({ err }, 'task clean-up failed');
    }
    if (canceling) this.#transition((s) => s.cleanedUp());
    else if (finished) this.#transition((s) => s.finished());
    else this.#fail(failure);
  }

  #releaseCause(canceling: boolean, failure: unknown): WeirError {
    const label = this.#runtime.label;
    if (canceling) return new WeirError(RuntimeErrorCode.PRODUCER_CANCELED, `the producer ${label} was canceled`);
    // The first line only: the producer's stack says nothing about the consumer.
    const why = (failure instanceof Error ? failure.message : String(failure)).split('\n')[0];
    return new WeirError(RuntimeErrorCode.PARTITION_RELEASED, `the producer ${label} failed: ${why}`);
  }

  #fail(failure: unknown): void {
    let message: string;
    let code: string;
    if (failure instanceof WeirError) {
      message = failure.message;
      code = failure.code;
    } else {
      const error = failure instanceof Error ? failure : new Error(String(failure));
      message = `${this.#runtime.label} failed: ${error.message}${error.stack === undefined ? '' : `\n${error.stack}`}`;
      code = CommonErrorCode.INTERNAL;
    }
    this.#options.logger.error({ err: failure, code }, 'task failed');
    this.#transition((s) => s.failed(), { message, code });
  }

  #transition(event: (state: LifecycleState) => LifecycleState, failure?: TaskStateChange['failure']): boolean {
    const next = event(this.#lifecycle);
    if (next === this.#lifecycle) return false;
    this.#lifecycle = next;
    this.#options.logger.info({ state: next.state }, 'task state changed');
    try {
      this.#options.onStateChange(failure === undefined ? { state: next.state } : { state: next.state, failure });
    } catch (err) {
      this.#options.logger.error({ err }, 'onStateChange threw');
    }
    if (isTerminalTaskState(next.state)) this.#signalTerminated!();
    return true;
  }
}
