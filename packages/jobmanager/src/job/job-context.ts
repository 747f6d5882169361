import { CommonErrorCode, TaskState, WeirError, decodeCoordinatorState, describeError, durationText, isTerminalTaskState, type Clock, type Logger } from '@weir/common';
import type { TaskCheckpointing } from '@weir/rpc';
import type { CheckpointCoordinator } from '../checkpoint/checkpoint-coordinator.ts';
import type { RestoreOutcome, RestorePoint } from '../checkpoint/restore-point.ts';
import { JobManagerErrorCode } from '../errors.ts';
import { RestartDecision, type RestartStrategy } from '../restart/restart-strategy.ts';
import { planDeployments } from '../scheduler/deployment.ts';
import type { SlotPool } from '../scheduler/slot-pool.ts';
import { ExceptionHistory } from './exception-history.ts';
import { Execution, type SubtaskExecution } from './execution.ts';
import { requiredSlots, type JobSpec } from './job-spec.ts';
import { JobTimer, type JobTimers } from './job-timers.ts';
import type { TaskManagerGateway } from './task-manager-gateway.ts';
import { TaskFailure } from './task-failure.ts';
import type { SourceCoordinators } from '../source/source-coordinators.ts';
import { subtaskName } from './task-name.ts';
import type { TaskUpdate } from './task-update.ts';
import { suppressesRestarts } from './unrecoverable.ts';

export interface JobContextDeps {
  readonly slotPool: SlotPool;
  readonly gateway: TaskManagerGateway;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly timers: JobTimers;
  readonly slotRequestTimeoutMs: number;
  readonly restartStrategy: RestartStrategy;
  /** Set when the job takes checkpoints. */
  readonly checkpoints: CheckpointCoordinator | undefined;
  /** The job's split sources, when it has any: fresh enumerators for every attempt. */
  readonly sources: SourceCoordinators | undefined;
  /** What every DeployTask carries when the job takes checkpoints. */
  readonly taskCheckpointing: TaskCheckpointing | undefined;
  /** Hands what a new attempt restores back to the job's event queue. */
  readonly restoreLoaded: (attempt: number, outcome: RestoreOutcome) => void;
}

/** @weir/runtime's RuntimeErrorCode.CHECKPOINT_CORRUPT: a task found the state it restored corrupt. */
const CHECKPOINT_CORRUPT = 'CHECKPOINT_CORRUPT';

/** What the job's states act on: its attempts, slots, subtasks and their TaskManagers, restarts, failure cause. */
export class JobContext {
  #attempt = 0;
  #restarts = 0;
  #execution: Execution | undefined;
  #rootCause: WeirError | undefined;
  #restore: RestorePoint | undefined;
  /** Every attempt's root failure and the failures that came with it. */
  readonly exceptions = new ExceptionHistory();

  constructor(
    readonly spec: JobSpec,
    private readonly deps: JobContextDeps,
  ) {
    // The first attempt starts from the savepoint checked at submission; IDs continue above it.
    this.#restore = spec.initialRestore?.point;
    if (this.#restore !== undefined) deps.checkpoints?.restored(this.#restore);
  }

  get attempt(): number {
    return this.#attempt;
  }

  /** The current attempt's deployed subtasks; undefined until slots were found. */
  get execution(): Execution | undefined {
    return this.#execution;
  }

  /**
   * The first failure of the current attempt; later ones (such as inputs failing because of
   * it) are consequences, except a failure no restart can fix, which is never a consequence
   * and decides the job's fate.
   */
  get rootCause(): WeirError | undefined {
    return this.#rootCause;
  }

  get restartStrategyName(): string {
    return this.deps.restartStrategy.name;
  }

  recordFailure(cause: WeirError): void {
    const root = this.#rootCause;
    if (root === undefined || (suppressesRestarts(cause) && !suppressesRestarts(root))) this.#rootCause = cause;
    this.exceptions.add(cause, this.deps.clock.now(), this.#attempt, root === undefined);
  }

  /** Takes the job's slots and deploys every subtask; false, with nothing taken, when too few slots are free. */
  tryDeploy(): boolean {
    const { slotPool, gateway, logger } = this.deps;
    const slots = slotPool.allocate(this.spec.jobId, requiredSlots(this.spec.jobGraph));
    if (slots === undefined) return false;
    this.deps.timers.stop(JobTimer.SLOT_REQUEST);
    const deployments = planDeployments(this.spec, this.#attempt, slots, {
      checkpointing: this.deps.taskCheckpointing,
      restore: this.#restore,
    });
    const restore = this.#restore;
    this.deps.sources?.startAttempt(this.#attempt, (operatorId) => {
      const state = restore?.metadata.operators.find((o) => o.operatorId === operatorId)?.coordinatorState;
      return state === undefined ? undefined : decodeCoordinatorState(state);
    });
    this.#execution = new Execution(
      this.#attempt,
      deployments.map((d) => ({
        vertexId: d.vertexId,
        index: d.subtaskIndex,
        taskManagerId: d.taskManagerId,
        state: TaskState.DEPLOYING,
        failureCause: '',
        timestamps: { [TaskState.DEPLOYING]: this.deps.clock.now() },
      })),
    );
    for (const d of deployments) {
      logger.debug({ vertexId: d.vertexId, subtask: d.subtaskIndex, taskManagerId: d.taskManagerId }, 'deploying subtask');
      gateway.send(d.taskManagerId, { deploy: d.message });
    }
    logger.info(
      { slots: slots.map((s) => `${s.taskManagerId}/${s.slotIndex}`), attempt: this.#attempt, checkpointId: this.#restore?.checkpointId },
      'job deployed',
    );
    return true;
  }

  /** Starts the slot request timeout of an attempt that found too few free slots. */
  awaitSlots(): void {
    this.deps.timers.start(JobTimer.SLOT_REQUEST, this.deps.slotRequestTimeoutMs);
  }

  /** The failure of a job that waited in vain for slots, with the cluster's current numbers. */
  slotShortage(): WeirError {
    const needed = requiredSlots(this.spec.jobGraph);
    const { free, total, taskManagers } = this.deps.slotPool.stats();
    return new WeirError(
      JobManagerErrorCode.NOT_ENOUGH_SLOTS,
      `not enough task slots: the job needs ${needed} slots (its highest parallelism) and the cluster has ${free} free of ${total} (${taskManagers} TaskManagers)`,
    );
  }

  /**
   * Asks the restart strategy what follows the current attempt's failure, unless the root
   * cause is one no restart can fix: then the job gives up without using up a restart. A
   * restart starts the restart delay; giving up after restarts makes the root cause say so.
   */
  decideRestart(): RestartDecision {
    const decision = this.#decideRestart();
    this.exceptions.decided(this.#attempt, decision.kind === 'restart' ? decision.delayMs : undefined);
    return decision;
  }

  #decideRestart(): RestartDecision {
    const { restartStrategy, clock, logger, timers } = this.deps;
    const cause = this.#rootCause;
    if (cause?.code === CHECKPOINT_CORRUPT && this.#restore !== undefined) {
      if (this.#restore === this.spec.initialRestore?.point) {
        logger.warn({ attempt: this.#attempt, checkpointId: this.#restore.checkpointId }, `not restarting the job: the savepoint it starts from is corrupt: ${cause.message}`);
        return RestartDecision.giveUp();
      }
      // Restoring it again fails the same way: the next attempt takes the previous retained checkpoint.
      this.deps.checkpoints?.corruptCheckpoint(this.#restore.checkpointId, cause.message);
    }
    if (cause !== undefined && suppressesRestarts(cause)) {
      logger.warn(
        { attempt: this.#attempt, code: cause.code, strategy: restartStrategy.name, cause: cause.message },
        `not restarting the job: no restart can fix its failure: ${cause.message}`,
      );
      return RestartDecision.giveUp();
    }
    const decision = restartStrategy.onFailure(clock.now());
    if (decision.kind === 'restart') {
      logger.info(
        { attempt: this.#attempt, delayMs: decision.delayMs, strategy: restartStrategy.name, code: cause?.code, cause: cause?.message },
        `restarting the job in ${durationText(decision.delayMs)} as attempt ${this.#attempt + 1} (${restartStrategy.name}) after: ${cause?.message ?? 'no cause recorded'}`,
      );
      timers.start(JobTimer.RESTART_DELAY, decision.delayMs);
    } else if (restartStrategy.name !== 'none' && cause !== undefined) {
      this.#rootCause = new WeirError(
        cause.code,
        `restart strategy ${restartStrategy.name} gave up after ${this.#restarts} restarts: ${cause.message}`,
        { cause },
      );
    }
    return decision;
  }

  /** Starts the next attempt: frees the last one's slots and loads what it restores; the outcome comes back as an event. */
  beginAttempt(): void {
    this.#attempt++;
    this.#restarts++;
    this.#execution = undefined;
    this.#rootCause = undefined;
    this.#restore = undefined;
    this.deps.slotPool.release(this.spec.jobId);
    const attempt = this.#attempt;
    const checkpoints = this.deps.checkpoints;
    const initial = this.spec.initialRestore;
    if (checkpoints === undefined) {
      this.deps.restoreLoaded(attempt, initial === undefined ? { kind: 'fresh' } : { kind: 'checkpoint', point: initial.point });
      return;
    }
    checkpoints.restoreOutcome(initial).then(
      (outcome) => this.deps.restoreLoaded(attempt, outcome),
      (err: unknown) =>
        this.deps.restoreLoaded(attempt, {
          kind: 'retry',
          cause: new WeirError(CommonErrorCode.INTERNAL, `could not look up the checkpoint to restore: ${describeError(err)}`, { cause: err }),
        }),
    );
  }

  /** The attempt starts from `point`, or empty when undefined. */
  restoreFrom(point: RestorePoint | undefined): void {
    this.#restore = point;
    if (point === undefined) {
      this.deps.logger.info({ attempt: this.#attempt }, 'restarting without state: no checkpoint was completed');
      return;
    }
    this.deps.checkpoints?.restored(point);
    this.deps.logger.info(
      { attempt: this.#attempt, checkpointId: point.checkpointId, path: point.checkpointPath || undefined },
      `restarting from checkpoint ${point.checkpointId}`,
    );
  }

  /**
   * Applies a TaskManager's report to its subtask and returns the subtask if its state
   * changed. Reports about subtasks that already ended, from a TaskManager the subtask is not
   * on, or going back from CANCELING to a live state are stale and ignored.
   */
  applyTaskUpdate(update: TaskUpdate): SubtaskExecution | undefined {
    const subtask = this.#execution?.get(update.vertexId, update.subtaskIndex);
    if (subtask === undefined || subtask.taskManagerId !== update.taskManagerId) return undefined;
    if (isTerminalTaskState(subtask.state) || subtask.state === update.state) return undefined;
    if (subtask.state === TaskState.CANCELING && !isTerminalTaskState(update.state)) return undefined;
    subtask.state = update.state;
    subtask.timestamps[update.state] = this.deps.clock.now();
    if (update.state === TaskState.FAILED) subtask.failureCause = withCode(update.failureCause, update.failureCode);
    if (update.state === TaskState.FINISHED) this.deps.checkpoints?.taskFinished(subtask.vertexId, subtask.index);
    this.deps.logger.debug({ vertexId: subtask.vertexId, subtask: subtask.index, state: subtask.state }, 'subtask state changed');
    return subtask;
  }

  /** Marks every live subtask on a lost TaskManager FAILED with the loss as cause, and returns them. */
  failTasksOn(taskManagerId: string, cause: WeirError): SubtaskExecution[] {
    const lost = (this.#execution?.running() ?? []).filter((s) => s.taskManagerId === taskManagerId);
    for (const subtask of lost) {
      subtask.state = TaskState.FAILED;
      subtask.failureCause = cause.message;
    }
    return lost;
  }

  /** Asks every subtask that has not ended to cancel. */
  cancelTasks(): void {
    for (const subtask of this.#execution?.running() ?? []) {
      if (subtask.state === TaskState.CANCELING) continue;
      subtask.state = TaskState.CANCELING;
      this.deps.gateway.send(subtask.taskManagerId, {
        cancel: { task: { jobId: this.spec.jobId, attempt: this.#attempt, vertexId: subtask.vertexId, subtaskIndex: subtask.index } },
      });
    }
  }

  allTasksTerminal(): boolean {
    return this.#execution?.allTerminal() ?? true;
  }

  allTasksFinished(): boolean {
    return this.#execution?.allFinished() ?? false;
  }

  /** Every subtask of the attempt restored its state and runs (or finished already). */
  allTasksRunning(): boolean {
    return this.#execution?.allRunning() ?? false;
  }

  /** The job-level cause for a subtask that failed or was canceled without being asked to. */
  taskFailure(subtask: SubtaskExecution, update: TaskUpdate): WeirError {
    const task = subtaskName(this.spec.jobGraph, subtask.vertexId, subtask.index);
    const origin = { vertexId: subtask.vertexId, subtaskIndex: subtask.index, taskManagerId: subtask.taskManagerId };
    if (subtask.state === TaskState.CANCELED) {
      return new TaskFailure(
        JobManagerErrorCode.TASK_FAILED,
        `${task} was canceled on TaskManager ${subtask.taskManagerId} although the JobManager did not ask for it`,
        origin,
      );
    }
    return new TaskFailure(
      update.failureCode || JobManagerErrorCode.TASK_FAILED,
      `${task} failed on TaskManager ${subtask.taskManagerId}: ${update.failureCause || 'no cause reported'}`,
      origin,
    );
  }
}

function withCode(cause: string, code: string): string {
  return code === '' || cause.includes(`[${code}]`) ? cause : `${cause} [${code}]`;
}
