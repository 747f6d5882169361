import { CommonErrorCode, TaskState, WeirError, type Clock, type Logger } from '@weir/common';
import {
  decodeEnumeratorEvent,
  decodeNotification,
  type CancelTask__Output,
  type DeployTask__Output,
  type NotifyCheckpoint__Output,
  type OperatorEvent__Output,
  type TaskKey__Output,
  type TriggerCheckpoint__Output,
} from '@weir/rpc';
import { resolveVertex, type LevelTuning, type NetworkEnvironment } from '@weir/runtime';
import type { StoragePool } from '@weir/storage';
import type { TaskControl, TaskReporter } from '../control/context.ts';
import { toTaskCheckpointing, toTaskStateBackend, toTaskRestore } from './checkpoint-options.ts';
import { DeployedTask } from './deployed-task.ts';
import { attemptId, describeTask, taskId, toDeploymentDescriptor } from './task-key.ts';
import type { JobLoader, TaskFactory } from './types.ts';

export interface DeployerOptions {
  readonly network: NetworkEnvironment;
  readonly loadJob: JobLoader;
  readonly createTask: TaskFactory;
  /** Checkpoint directories and restore paths; the TaskManager closes the pool. */
  readonly storages: StoragePool;
  /** state.backend.rocksdb.localdir, resolved: where tasks keep LevelDB state. */
  readonly localStateDir: string;
  /** state.backend.rocksdb.*: LevelDB's options of each DB. */
  readonly levelTuning?: LevelTuning;
  readonly logger: Logger;
  readonly clock: Clock;
  /** A task became terminal (called before it is forgotten), so its final metrics can be taken. */
  readonly onTaskEnded?: (task: DeployedTask) => void;
}

/** Runs the tasks the JobManager deploys here, and releases a job attempt's partitions once all its tasks here ended. */
export class Deployer implements TaskControl {
  readonly #options: DeployerOptions;
  readonly #tasks = new Map<string, DeployedTask>();

  constructor(options: DeployerOptions) {
    this.#options = options;
  }

  /** Tasks not yet terminal. */
  get taskCount(): number {
    return this.#tasks.size;
  }

  /** The tasks not yet terminal. */
  tasks(): Iterable<DeployedTask> {
    return this.#tasks.values();
  }

  deploy(message: DeployTask__Output, reporter: TaskReporter): void {
    const key = message.task;
    if (key === null) {
      this.#options.logger.warn({ bundleHash: message.bundleHash }, 'ignored a deploy without a task key');
      return;
    }
    const id = taskId(key);
    if (this.#tasks.has(id)) {
      this.#options.logger.warn({ task: id }, 'ignored a second deploy of a task that is still running');
      return;
    }
    const logger = this.#options.logger.child({
      jobId: key.jobId,
      attempt: key.attempt,
      vertexId: key.vertexId,
      subtask: key.subtaskIndex,
    });
    const task = new DeployedTask(key, message.jobName, logger, reporter, () => this.#ended(id, task));
    this.#tasks.set(id, task);
    logger.info({ bundleHash: message.bundleHash }, 'deploying task');
    task.onStateChange({ state: TaskState.DEPLOYING });
    void this.#start(task, message, key);
  }

  cancel(message: CancelTask__Output): void {
    const task = message.task === null ? undefined : this.#tasks.get(taskId(message.task));
    if (task === undefined) {
      this.#options.logger.debug({ task: message.task }, 'ignored cancel of a task not running here');
      return;
    }
    void task.cancel();
  }

  triggerCheckpoint(message: TriggerCheckpoint__Output): void {
    const task = this.#running(message.task, message.checkpointId, 'a checkpoint trigger');
    task?.triggerCheckpoint(message);
  }

  notifyCheckpoint(message: NotifyCheckpoint__Output): void {
    const task = this.#running(message.task, message.checkpointId, 'a checkpoint notification');
    if (task === undefined) return;
    const notification = decodeNotification(message);
    if (typeof notification === 'string') this.#options.logger.warn({ task: message.task }, `ignored a checkpoint notification: ${notification}`);
    else task.notifyCheckpoint(notification.checkpointId, notification.completed);
  }

  operatorEvent(message: OperatorEvent__Output): void {
    const task = message.task === null ? undefined : this.#tasks.get(taskId(message.task));
    if (task === undefined) {
      this.#options.logger.debug({ task: message.task, operatorId: message.operatorId }, 'ignored an enumerator event for a task not running here');
      return;
    }
    const decoded = decodeEnumeratorEvent(message);
    if (typeof decoded === 'string') task.logger.warn({ operatorId: message.operatorId }, `ignored an enumerator event: ${decoded}`);
    else task.dispatchOperatorEvent(decoded.operatorId, decoded.event);
  }

  cancelAll(): Promise<void> {
    return Promise.all([...this.#tasks.values()].map((task) => task.cancel())).then(() => undefined);
  }

  async #start(task: DeployedTask, message: DeployTask__Output, key: TaskKey__Output): Promise<void> {
    try {
      const { graph, jobGraph } = await this.#options.loadJob(message);
      const deployment = toDeploymentDescriptor(message, key);
      // Before anything is created for it: a task whose graph differs fails here, naming what differs.
      resolveVertex(deployment, graph, jobGraph);
      const checkpointing = toTaskCheckpointing(message, this.#options.storages);
      const stateBackend = toTaskStateBackend(message, this.#options.localStateDir, this.#options.levelTuning);
      const restore = toTaskRestore(message, this.#options.storages);
      if (task.isTerminal) return;
      const runnable = this.#options.createTask({
        deployment,
        graph,
        jobGraph,
        network: this.#options.network,
        logger: task.logger,
        clock: this.#options.clock,
        onStateChange: (change) => task.onStateChange(change),
        checkpointing,
        stateBackend,
        restore,
        onCheckpointAck: (ack) => task.acknowledgeCheckpoint(ack),
        onCheckpointDecline: (decline) => task.declineCheckpoint(decline),
        onAwaitingFinalCheckpoint: (message) => task.awaitingFinalCheckpoint(message),
        onOperatorEvent: (operatorId, event) => task.sendOperatorEvent(operatorId, event),
      });
      task.attach(runnable, jobGraph.vertices.find((v) => v.id === key.vertexId)!.name);
      runnable.start();
    } catch (error) {
      const failure = failureBeforeStart(error, key, message.parallelism);
      task.logger.warn({ failure: failure.message, code: failure.code }, 'task failed before it started');
      task.onStateChange({ state: TaskState.FAILED, failure });
    }
  }

  #running(key: TaskKey__Output | null, checkpointId: number, what: string): DeployedTask | undefined {
    const task = key === null ? undefined : this.#tasks.get(taskId(key));
    if (task === undefined) this.#options.logger.debug({ task: key, checkpointId }, `ignored ${what} for a task not running here`);
    return task;
  }

  #ended(id: string, task: DeployedTask): void {
    const key = task.key;
    this.#options.onTaskEnded?.(task);
    this.#tasks.delete(id);
    // Deferred so the task has returned from its final state change before its partitions go.
    queueMicrotask(() => {
      const attempt = attemptId(key);
      for (const other of this.#tasks.values()) if (attemptId(other.key) === attempt) return;
      this.#options.logger.debug({ jobId: key.jobId, attempt: key.attempt }, 'releasing the partitions of a job attempt');
      try {
        this.#options.network.partitions.releaseAttempt(key.jobId, key.attempt);
      } catch (error) {
        // Out of a microtask an exception would end the process, and with it every other job's tasks.
        this.#options.logger.error({ err: error, jobId: key.jobId, attempt: key.attempt }, 'releasing the partitions of a job attempt failed');
      }
    });
  }
}

function failureBeforeStart(error: unknown, key: TaskKey__Output, parallelism: number): { message: string; code: string } {
  const where = `deploying ${describeTask(key, parallelism)} failed`;
  if (error instanceof WeirError) return { message: `${where}: ${error.message}`, code: error.code };
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { message: `${where}: ${detail}`, code: CommonErrorCode.INTERNAL };
}
