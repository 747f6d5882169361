import { JobStatus, isGloballyTerminal, type Clock, type Logger, type TimerHandle, type WeirError } from '@weir/common';
import type { SlotPool } from '../scheduler/slot-pool.ts';
import type { SubtaskExecution } from './execution.ts';
import { JobContext } from './job-context.ts';
import type { JobSpec } from './job-spec.ts';
import { CreatedState } from './states/created.ts';
import type { JobState } from './states/job-state.ts';
import type { TaskManagerGateway } from './task-manager-gateway.ts';
import type { TaskUpdate } from './task-update.ts';

export interface JobMasterDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly slotPool: SlotPool;
  readonly gateway: TaskManagerGateway;
  /** How long the job waits for enough free slots before it fails. */
  readonly slotRequestTimeoutMs: number;
}

export type JobStatusListener = (status: JobStatus) => void;

/**
 * Runs one job: feeds events to its current state and does the bookkeeping every transition
 * needs (slot timer, slots, end time, status listeners). Events are handled one at a time:
 * one raised while another is being handled (a TaskManager answering a cancel at once, say)
 * waits for it.
 */
export class JobMaster {
  readonly startTimeMs: number;
  readonly #ctx: JobContext;
  readonly #deps: JobMasterDeps;
  readonly #listeners = new Set<JobStatusListener>();
  readonly #pending: ((state: JobState) => JobState)[] = [];
  #handling = false;
  #state: JobState = new CreatedState();
  #endTimeMs = 0;
  #slotTimer: TimerHandle | undefined;

  constructor(
    readonly spec: JobSpec,
    deps: JobMasterDeps,
  ) {
    this.#deps = deps;
    this.#ctx = new JobContext(spec, deps.slotPool, deps.gateway, deps.logger);
    this.startTimeMs = deps.clock.now();
  }

  get jobId(): string {
    return this.spec.jobId;
  }

  get status(): JobStatus {
    return this.#state.status;
  }

  get attempt(): number {
    return this.#ctx.attempt;
  }

  /** 0 while the job is not terminal. */
  get endTimeMs(): number {
    return this.#endTimeMs;
  }

  /** The root cause's message once the job failed; empty otherwise. */
  get failureCause(): string {
    return this.status === JobStatus.FAILED ? (this.#ctx.rootCause?.message ?? '') : '';
  }

  /** The current attempt's subtasks; empty until the job is deployed. */
  subtasks(): readonly SubtaskExecution[] {
    return this.#ctx.execution?.all() ?? [];
  }

  /** Starts waiting for slots, deploying at once if there are enough. */
  start(): void {
    this.#deps.logger.info(
      { jobName: this.spec.jobGraph.jobName, vertices: this.spec.jobGraph.vertices.length },
      'job submitted',
    );
    this.#slotTimer = this.#deps.clock.setTimeout(
      () => this.#handle((s) => s.onSlotRequestTimeout(this.#ctx)),
      this.#deps.slotRequestTimeoutMs,
    );
    this.slotsMayBeAvailable();
  }

  slotsMayBeAvailable(): void {
    this.#handle((s) => s.onSlotsAvailable(this.#ctx));
  }

  taskUpdate(update: TaskUpdate): void {
    if (update.attempt !== this.#ctx.attempt) {
      this.#deps.logger.debug({ attempt: update.attempt, vertexId: update.vertexId, subtask: update.subtaskIndex }, 'ignoring status of an old attempt');
      return;
    }
    this.#handle((s) => s.onTaskUpdate(this.#ctx, update));
  }

  taskManagerLost(taskManagerId: string, cause: WeirError): void {
    this.#handle((s) => s.onTaskManagerLost(this.#ctx, taskManagerId, cause));
  }

  /** Asks the job to cancel and returns its status after that. */
  cancel(): JobStatus {
    this.#handle((s) => s.onCancel(this.#ctx));
    return this.status;
  }

  /** Stops the job's timer for the JobManager's shutdown, so it neither fires later nor keeps the process alive. */
  shutDown(): void {
    if (this.#slotTimer !== undefined) this.#deps.clock.clearTimeout(this.#slotTimer);
    this.#slotTimer = undefined;
  }

  /** Calls `listener` with every status change from now on; returns the unsubscribe function. */
  onStatusChange(listener: JobStatusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #handle(event: (state: JobState) => JobState): void {
    this.#pending.push(event);
    if (this.#handling) return;
    this.#handling = true;
    try {
      for (let next = this.#pending.shift(); next !== undefined; next = this.#pending.shift()) {
        const state = next(this.#state);
        if (state !== this.#state) this.#enter(state);
      }
    } finally {
      this.#handling = false;
    }
  }

  #enter(state: JobState): void {
    const previous = this.#state.status;
    this.#state = state;
    if (state.status !== JobStatus.CREATED && this.#slotTimer !== undefined) {
      this.#deps.clock.clearTimeout(this.#slotTimer);
      this.#slotTimer = undefined;
    }
    if (isGloballyTerminal(state.status)) {
      this.#endTimeMs = this.#deps.clock.now();
      this.#deps.slotPool.release(this.spec.jobId);
    }
    if (previous === state.status) return;
    const cause = this.#ctx.rootCause;
    if (state.status === JobStatus.FAILED || state.status === JobStatus.FAILING) {
      this.#deps.logger.warn({ from: previous, to: state.status, code: cause?.code, cause: cause?.message }, 'job status changed');
    } else {
      this.#deps.logger.info({ from: previous, to: state.status }, 'job status changed');
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(state.status);
      } catch (err) {
        this.#deps.logger.error({ err }, 'job status listener threw');
      }
    }
  }
}
