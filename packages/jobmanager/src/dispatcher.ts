import { WeirError, isGloballyTerminal, type JobStatus } from '@weir/common';
import {
  decodeAck,
  decodeAwaitingFinalCheckpoint,
  decodeDecline,
  type AcknowledgeCheckpoint__Output,
  type AwaitingFinalCheckpoint__Output,
  type DeclineCheckpoint__Output, type JobSummary, type OperatorEvent__Output, type TaskStatusUpdate__Output } from '@weir/rpc';
import type { Storage } from '@weir/storage';
import type { FromTaskManager } from './checkpoint/from-task-manager.ts';
import { JobManagerErrorCode } from './errors.ts';
import { JobMaster, type JobMasterDeps, type JobMasterOptions } from './job/job-master.ts';
import { toJobSummary } from './service/job-views.ts';
import type { JobSpec } from './job/job-spec.ts';
import { parseTaskUpdate } from './job/task-update.ts';
import { parseReaderEvent } from './source/reader-event.ts';

export interface DispatchOptions extends JobMasterOptions {
  /** When the job was first submitted (a recovered job keeps it). */
  readonly submittedAtMs?: number;
}

/** What `weir list` shows of a job that ended under an earlier leader. */
export interface ArchivedJob {
  readonly jobId: string;
  readonly name: string;
  readonly status: string;
  readonly startTimeMs: number;
  readonly endTimeMs: number;
}

/** Every job of this JobManager, in submission order, and the routing of cluster events to them. */
export class Dispatcher {
  readonly #jobs = new Map<string, JobMaster>();
  readonly #archived = new Map<string, ArchivedJob>();
  /** When each job was first submitted, which a recovered job keeps across leaders. */
  readonly #submittedAt = new Map<string, number>();

  constructor(
    private readonly deps: JobMasterDeps,
    /** Told before a job is asked to cancel (HA records it, so no later leader resurrects the job). */
    private readonly cancelRequested?: (master: JobMaster, submittedAtMs: number) => void,
  ) {}

  /**
   * Starts the job (or, with `options.recovered`, takes it over from the previous leader);
   * `checkpointRoot` is its opened checkpoint directory when its settings name one.
   */
  submit(spec: JobSpec, checkpointRoot?: Storage, options: DispatchOptions = {}): JobMaster {
    const master = new JobMaster(spec, { ...this.deps, logger: this.deps.logger.child({ jobId: spec.jobId }) }, checkpointRoot, options);
    this.#jobs.set(spec.jobId, master);
    if (options.submittedAtMs !== undefined) this.#submittedAt.set(spec.jobId, options.submittedAtMs);
    master.onStatusChange((status) => {
      // A job that ends frees its slots, which a job still waiting for slots may now get.
      if (isGloballyTerminal(status)) this.slotsMayBeAvailable();
    });
    if (options.recovered === undefined) master.start();
    else master.recover();
    return master;
  }

  /** A job that ended under an earlier leader: listed, never run again. */
  archive(job: ArchivedJob): void {
    this.#archived.set(job.jobId, job);
  }

  /** Every job, running or ended here, and those ended under earlier leaders, oldest first. */
  summaries(): JobSummary[] {
    const live = this.list().map((master) => ({ ...toJobSummary(master), startTimeMs: this.#submittedAt.get(master.jobId) ?? master.startTimeMs }));
    return [...this.#archived.values(), ...live].sort((a, b) => Number(a.startTimeMs) - Number(b.startTimeMs));
  }

  /** The archived job with that ID, if it ended under an earlier leader. */
  archived(jobId: string): ArchivedJob | undefined {
    return this.#archived.get(jobId);
  }

  get(jobId: string): JobMaster {
    const master = this.#jobs.get(jobId);
    const archived = this.#archived.get(jobId);
    if (master === undefined && archived !== undefined) {
      throw new WeirError(JobManagerErrorCode.JOB_NOT_FOUND, `job ${jobId} ended (${archived.status}) under an earlier JobManager leader; only its summary is kept (\`weir list\`)`);
    }
    if (master === undefined) {
      throw new WeirError(
        JobManagerErrorCode.JOB_NOT_FOUND,
        `no job with ID '${jobId}' on this JobManager; \`weir list\` shows the jobs it knows`,
      );
    }
    return master;
  }

  /** Who submitted the running job `jobId` (principalId), for authorization; undefined when not known or no such job here. */
  ownerOf(jobId: string): string | undefined {
    const owner = this.#jobs.get(jobId)?.spec.owner;
    return owner === '' ? undefined : owner;
  }

  list(): JobMaster[] {
    return [...this.#jobs.values()];
  }

  /** Cancels the job and returns its status; a job that already ended just reports its status. */
  cancel(jobId: string): JobStatus {
    const archived = this.#archived.get(jobId);
    if (archived !== undefined) return archived.status as JobStatus;
    const master = this.get(jobId);
    if (isGloballyTerminal(master.status)) return master.status;
    this.cancelRequested?.(master, this.#submittedAt.get(jobId) ?? master.startTimeMs);
    return master.cancel();
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

  awaitingFinalCheckpoint(taskManagerId: string, message: AwaitingFinalCheckpoint__Output): void {
    const decoded = decodeAwaitingFinalCheckpoint(message);
    if (typeof decoded === 'string') {
      this.deps.logger.warn({ taskManagerId }, `ignoring a task's end of input: ${decoded}`);
      return;
    }
    const received = { ...decoded, taskManagerId };
    this.#jobOf(received)?.awaitingFinalCheckpoint(received);
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

  #jobOf(message: FromTaskManager<{ readonly checkpointId?: number }>): JobMaster | undefined {
    const master = this.#jobs.get(message.task.jobId);
    if (master === undefined) {
      this.deps.logger.warn({ taskManagerId: message.taskManagerId, jobId: message.task.jobId, checkpointId: message.checkpointId }, 'ignoring a checkpoint message of an unknown job');
    }
    return master;
  }
}
