import { WeirError, isGloballyTerminal, type JobStatus } from '@weir/common';
import { decodeAck, decodeDecline, type AcknowledgeCheckpoint__Output, type DeclineCheckpoint__Output, type OperatorEvent__Output, type TaskStatusUpdate__Output } from '@weir/rpc';
import type { Storage } from '@weir/storage';
import type { FromTaskManager } from './checkpoint/from-task-manager.ts';
import { JobManagerErrorCode } from './errors.ts';
import { JobMaster, type JobMasterDeps } from './job/job-master.ts';
import type { JobSpec } from './job/job-spec.ts';
import { parseTaskUpdate } from './job/task-update.ts';
import type { JobUserCode } from './user-code/job-worker.ts';
import { parseReaderEvent } from './source/reader-event.ts';

/** Every job of this JobManager, in submission order, and the routing of cluster events to them. */
export class Dispatcher {
  readonly #jobs = new Map<string, JobMaster>();

  constructor(private readonly deps: JobMasterDeps) {}

  /** Starts the job; `checkpointRoot` is its opened checkpoint directory when its settings name one, `userCode` its worker. */
  submit(spec: JobSpec, checkpointRoot?: Storage, userCode?: JobUserCode): JobMaster {
    const master = new JobMaster(spec, { ...this.deps, logger: this.deps.logger.child({ jobId: spec.jobId }) }, checkpointRoot, userCode);
    this.#jobs.set(spec.jobId, master);
    master.onStatusChange((status) => {
      // A job that ends frees its slots, which a job still waiting for slots may now get.
      if (isGloballyTerminal(status)) this.slotsMayBeAvailable();
    });
    master.start();
    return master;
  }

  get(jobId: string): JobMaster {
    const master = this.#jobs.get(jobId);
    if (master === undefined) {
      throw new WeirError(
        JobManagerErrorCode.JOB_NOT_FOUND,
        `no job with ID '${jobId}' on this JobManager; \`weir list\` shows the jobs it knows`,
      );
    }
    return master;
  }

  list(): JobMaster[] {
    return [...this.#jobs.values()];
  }

  /** Cancels the job and returns its status; a job that already ended just reports its status. */
  cancel(jobId: string): JobStatus {
    const master = this.get(jobId);
    return isGloballyTerminal(master.status) ? master.status : master.cancel();
  }

  /** Lets jobs waiting for slots (in submission order) try to take them. */
  slotsMayBeAvailable(): void {
    for (const master of this.#jobs.values()) master.slotsMayBeAvailable();
  }

  taskStatus(taskManagerId: string, message: TaskStatusUpdate__Output): void {
    const update = parseTaskUpdate(taskManagerId, message);
    if (typeof update === 'string') {
      this.deps.logger.warn({ taskManagerId }, `ignoring a task status update: ${update}`);
      return;
    }
    const master = this.#jobs.get(update.jobId);
    if (master === undefined) {
      this.deps.logger.warn({ taskManagerId, jobId: update.jobId }, 'ignoring a task status update of an unknown job');
      return;
    }
    master.taskUpdate(update);
  }

  acknowledgeCheckpoint(taskManagerId: string, message: AcknowledgeCheckpoint__Output): void {
    const decoded = decodeAck(message);
    if (typeof decoded === 'string') {
      this.deps.logger.warn({ taskManagerId }, `ignoring a checkpoint acknowledgement: ${decoded}`);
      return;
    }
    const received = { ...decoded, taskManagerId };
    const master = this.#jobOf(received);
    if (master === undefined) return;
    if ('reason' in received) master.declineCheckpoint(received);
    else master.acknowledgeCheckpoint(received);
  }

  declineCheckpoint(taskManagerId: string, message: DeclineCheckpoint__Output): void {
    const decoded = decodeDecline(message);
    if (typeof decoded === 'string') {
      this.deps.logger.warn({ taskManagerId }, `ignoring a checkpoint decline: ${decoded}`);
      return;
    }
    const received = { ...decoded, taskManagerId };
    this.#jobOf(received)?.declineCheckpoint(received);
  }

  operatorEvent(taskManagerId: string, message: OperatorEvent__Output): void {
    const parsed = parseReaderEvent(taskManagerId, message);
    if (typeof parsed === 'string') {
      this.deps.logger.warn({ taskManagerId }, `ignoring a reader event: ${parsed}`);
      return;
    }
    this.#jobs.get(parsed.jobId)?.operatorEvent(parsed);
  }

  taskManagerLost(taskManagerId: string, cause: WeirError): void {
    for (const master of this.#jobs.values()) master.taskManagerLost(taskManagerId, cause);
  }

  shutDown(): void {
    for (const master of this.#jobs.values()) master.shutDown();
  }

  #jobOf(message: FromTaskManager<{ readonly checkpointId: number }>): JobMaster | undefined {
    const master = this.#jobs.get(message.task.jobId);
    if (master === undefined) {
      this.deps.logger.warn({ taskManagerId: message.taskManagerId, jobId: message.task.jobId, checkpointId: message.checkpointId }, 'ignoring a checkpoint message of an unknown job');
    }
    return master;
  }
}
