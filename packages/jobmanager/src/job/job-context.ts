import { TaskState, WeirError, isTerminalTaskState, type Logger } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';
import { planDeployments } from '../scheduler/deployment.ts';
import type { SlotPool } from '../scheduler/slot-pool.ts';
import { Execution, type SubtaskExecution } from './execution.ts';
import { requiredSlots, type JobSpec } from './job-spec.ts';
import type { TaskManagerGateway } from './task-manager-gateway.ts';
import type { TaskUpdate } from './task-update.ts';

/** What the job's states act on: its slots, its subtasks and their TaskManagers, its failure cause. */
export class JobContext {
  readonly attempt = 0;
  #execution: Execution | undefined;
  #rootCause: WeirError | undefined;

  constructor(
    readonly spec: JobSpec,
    private readonly slotPool: SlotPool,
    private readonly gateway: TaskManagerGateway,
    private readonly logger: Logger,
  ) {}

  /** The deployed subtasks; undefined until slots were found. */
  get execution(): Execution | undefined {
    return this.#execution;
  }

  /** The first failure of the job; later ones (such as inputs failing because of it) are consequences. */
  get rootCause(): WeirError | undefined {
    return this.#rootCause;
  }

  recordFailure(cause: WeirError): void {
    this.#rootCause ??= cause;
  }

  /** Takes the job's slots and deploys every subtask; false, with nothing taken, when too few slots are free. */
  tryDeploy(): boolean {
    const slots = this.slotPool.allocate(this.spec.jobId, requiredSlots(this.spec.jobGraph));
    if (slots === undefined) return false;
    const deployments = planDeployments(this.spec, this.attempt, slots);
    this.#execution = new Execution(
      this.attempt,
      deployments.map((d) => ({
        vertexId: d.vertexId,
        index: d.subtaskIndex,
        taskManagerId: d.taskManagerId,
        state: TaskState.DEPLOYING,
        failureCause: '',
      })),
    );
    for (const d of deployments) {
      this.logger.debug({ vertexId: d.vertexId, subtask: d.subtaskIndex, taskManagerId: d.taskManagerId }, 'deploying subtask');
      this.gateway.send(d.taskManagerId, { deploy: d.message });
    }
    this.logger.info({ slots: slots.map((s) => `${s.taskManagerId}/${s.slotIndex}`), attempt: this.attempt }, 'job deployed');
    return true;
  }

  /** The failure of a job that waited in vain for slots, with the cluster's current numbers. */
  slotShortage(): WeirError {
    const needed = requiredSlots(this.spec.jobGraph);
    const { free, total, taskManagers } = this.slotPool.stats();
    return new WeirError(
      JobManagerErrorCode.NOT_ENOUGH_SLOTS,
      `not enough task slots: the job needs ${needed} slots (its highest parallelism) and the cluster has ${free} free of ${total} (${taskManagers} TaskManagers)`,
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
    if (update.state === TaskState.FAILED) subtask.failureCause = withCode(update.failureCause, update.failureCode);
    this.logger.debug({ vertexId: subtask.vertexId, subtask: subtask.index, state: subtask.state }, 'subtask state changed');
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
      this.gateway.send(subtask.taskManagerId, {
        cancel: { task: { jobId: this.spec.jobId, attempt: this.attempt, vertexId: subtask.vertexId, subtaskIndex: subtask.index } },
      });
    }
  }

  allTasksTerminal(): boolean {
    return this.#execution?.allTerminal() ?? true;
  }

  allTasksFinished(): boolean {
    return this.#execution?.allFinished() ?? false;
  }

  /** The job-level cause for a subtask that failed or was canceled without being asked to. */
  taskFailure(subtask: SubtaskExecution, update: TaskUpdate): WeirError {
    const vertex = this.spec.jobGraph.vertices.find((v) => v.id === subtask.vertexId)!;
    const task = `${vertex.name} (${subtask.index + 1}/${vertex.parallelism})`;
    if (subtask.state === TaskState.CANCELED) {
      return new WeirError(
        JobManagerErrorCode.TASK_FAILED,
        `${task} was canceled on TaskManager ${subtask.taskManagerId} although the JobManager did not ask for it`,
      );
    }
    return new WeirError(
      update.failureCode || JobManagerErrorCode.TASK_FAILED,
      `${task} failed on TaskManager ${subtask.taskManagerId}: ${update.failureCause || 'no cause reported'}`,
    );
  }
}

function withCode(cause: string, code: string): string {
  return code === '' || cause.includes(`[${code}]`) ? cause : `${cause} [${code}]`;
}
