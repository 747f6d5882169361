import { CheckpointFailureReason, JobStatus, WeirError, isGloballyTerminal, type AwaitingFinalCheckpoint, type CheckpointAck, type CheckpointDecline, type Clock, type Logger } from '@weir/common';
import type { JobEndStatus } from '@weir/api';
import type { Storage } from '@weir/storage';
import { CheckpointCoordinator } from '../checkpoint/checkpoint-coordinator.ts';
import type { CheckpointHistoryView } from '../checkpoint/checkpoint-history.ts';
import type { FromTaskManager } from '../checkpoint/from-task-manager.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint-store.ts';
import type { CompletedCheckpointInfo } from '../checkpoint/on-demand-checkpoints.ts';
import type { JobCheckpointHa } from '../ha/leader-ha.ts';
import { JobCheckpointStorage } from '../checkpoint/checkpoint-storage.ts';
import type { RestoreOutcome } from '../checkpoint/restore-point.ts';
import { JobManagerErrorCode } from '../errors.ts';
import { createRestartStrategy } from '../restart/create-restart-strategy.ts';
import type { SavepointMode } from '../savepoint/savepoint-mode.ts';
import type { CompletedSavepoint } from '../savepoint/savepoint-operation.ts';
import type { SavepointTarget } from '../savepoint/savepoint-target.ts';
import type { SlotPool } from '../scheduler/slot-pool.ts';
import type { SubtaskExecution } from './execution.ts';
import type { FailureEntry } from './exception-history.ts';
import { JobContext } from './job-context.ts';
import { releaseEndedJob } from './job-end.ts';
import type { JobSpec } from './job-spec.ts';
import { SourceCoordinators, type ReaderEventMessage } from '../source/source-coordinators.ts';
import { CollectResultBuffer } from '../collect/collect-result-buffer.ts';
import { creditSender } from '../collect/collect-results.ts';
import { JobTimer, JobTimers } from './job-timers.ts';
import { taskCheckpointing } from './task-checkpointing.ts';
import { CreatedState } from './states/awaiting-slots.ts';
import type { JobState } from './states/job-state.ts';
import type { TaskManagerGateway } from './task-manager-gateway.ts';
import type { TaskUpdate } from './task-update.ts';
import type { JobUserCode } from '../user-code/job-worker.ts';

export interface JobMasterDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly slotPool: SlotPool;
  readonly gateway: TaskManagerGateway;
  /** How long the job waits for enough free slots before it fails. */
  readonly slotRequestTimeoutMs: number;
}

export type JobStatusListener = (status: JobStatus) => void;

/** What a job has under HA, or after a new leader took it over. */
export interface JobMasterOptions {
  /** The job's worker on this side, where its user code keeps running. */
  readonly userCode?: JobUserCode;
  readonly checkpointHa?: JobCheckpointHa;
  /** Set for a job a new leader recovered: its retained checkpoints from etcd, oldest first. */
  readonly recovered?: readonly CompletedCheckpoint[];
  /** Makes the job's end durable (HA: its record in etcd) before its checkpoints are cleaned up; a rejection skips the clean-up. */
  readonly recordEnd?: (status: JobStatus, failureCause: string) => Promise<void>;
}

const EMPTY_HISTORY: CheckpointHistoryView = { checkpoints: [], completed: 0, failed: 0, restoredFrom: 0, restores: 0, restored: undefined };

/**
 * Runs one job: feeds events to its current state and does the bookkeeping every transition
 * needs (timers, slots, checkpoint coordinator, end time, status listeners). Events are
 * handled one at a time: one raised while another is being handled (a TaskManager answering
 * a cancel at once, say) waits for it.
 */
export class JobMaster {
  readonly startTimeMs: number;
  readonly #ctx: JobContext;
  readonly #deps: JobMasterDeps;
  readonly #timers: JobTimers;
  readonly #checkpoints: CheckpointCoordinator | undefined;
  readonly #userCode: JobUserCode | undefined;
  readonly #sources: SourceCoordinators | undefined;
  /** The rows of the job's collect sink until its submitter fetches them (JobService.FetchResults). */
  readonly results: CollectResultBuffer;
  readonly #listeners = new Set<JobStatusListener>();
  readonly #pending: ((state: JobState) => JobState)[] = [];
  #handling = false;
  #state: JobState = new CreatedState();
  #endTimeMs = 0;
  /** When the job last entered each status it has been in. */
  readonly #statusTimestamps: Partial<Record<JobStatus, number>> = {};

  /**
   * `checkpointRoot` is the opened checkpoint directory (below which the job writes
   * `<jobId>/`), when its settings name one; `options.userCode` the job's worker on this side,
   * closed when the job ends: its death fails the job over.
   */
  readonly #options: JobMasterOptions;

  constructor(
    readonly spec: JobSpec,
    deps: JobMasterDeps,
    checkpointRoot?: Storage,
    options: JobMasterOptions = {},
  ) {
    this.#deps = deps;
    this.#options = options;
    this.results = new CollectResultBuffer(creditSender(spec.jobId, deps.gateway));
    // A fetch waiting for rows answers at once when the job ends.
    this.#listeners.add(() => this.results.wakeAll());
    this.#userCode = options.userCode;
    options.userCode?.onDeath((cause) => this.#handle((s) => s.onGlobalFailure(this.#ctx, cause)));
    const splitSources = spec.splitSources ?? [];
    this.#sources =
      options.userCode === undefined || splitSources.length === 0
        ? undefined
        : new SourceCoordinators(splitSources, options.userCode.enumerators(), {
            jobId: spec.jobId,
            gateway: deps.gateway,
            logger: deps.logger,
            locate: (vertexId, index) => {
              const execution = this.#ctx.execution;
              const subtask = execution?.get(vertexId, index);
              return execution === undefined || subtask === undefined ? undefined : { attempt: execution.attempt, taskManagerId: subtask.taskManagerId };
            },
            failJob: (cause) => this.#handle((s) => s.onGlobalFailure(this.#ctx, cause)),
          });
    this.#timers = new JobTimers(deps.clock, (timer) =>
      this.#handle((s) => (timer === JobTimer.SLOT_REQUEST ? s.onSlotRequestTimeout(this.#ctx) : s.onRestartDelayElapsed(this.#ctx))),
    );
    const checkpointing = spec.settings.checkpointing;
    const storage = checkpointing !== undefined && checkpointRoot !== undefined ? new JobCheckpointStorage(checkpointRoot, spec.jobId, deps.logger) : undefined;
    this.#checkpoints =
      checkpointing === undefined
        ? undefined
        : new CheckpointCoordinator({
            jobId: spec.jobId,
            jobGraph: spec.jobGraph,
            settings: checkpointing,
            storage,
            clock: deps.clock,
            logger: deps.logger,
            gateway: deps.gateway,
            failJob: (cause) => this.#handle((s) => s.onGlobalFailure(this.#ctx, cause)),
            ...(this.#sources === undefined ? {} : { sources: this.#sources }),
            ha: options.checkpointHa,
            recovered: options.recovered,
          });
    this.#ctx = new JobContext(spec, {
      slotPool: deps.slotPool,
      gateway: deps.gateway,
      logger: deps.logger,
      clock: deps.clock,
      timers: this.#timers,
      slotRequestTimeoutMs: deps.slotRequestTimeoutMs,
      restartStrategy: createRestartStrategy(spec.settings.restartStrategy),
      checkpoints: this.#checkpoints,
      sources: this.#sources,
      taskCheckpointing: checkpointing === undefined ? undefined : taskCheckpointing(checkpointing, storage),
      restoreLoaded: (attempt, outcome) => this.#restoreLoaded(attempt, outcome),
    });
    this.startTimeMs = deps.clock.now();
    this.#statusTimestamps[JobStatus.CREATED] = this.startTimeMs;
  }

  get jobId(): string {
    return this.spec.jobId;
  }

  get status(): JobStatus {
    return this.#state.status;
  }

  /** Attempts start at 0, so this is also the number of restarts so far (Flink's numRestarts). */
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

  /** When the job last entered each status it has been in (Flink's `timestamps` of a job). */
  statusTimestamps(): Readonly<Partial<Record<JobStatus, number>>> {
    return this.#statusTimestamps;
  }

  /** Each attempt's root failure and the failures that came with it, newest first, with what the restart strategy decided. */
  exceptions(): { readonly entries: readonly FailureEntry[]; readonly truncated: boolean } {
    return { entries: this.#ctx.exceptions.entries(), truncated: this.#ctx.exceptions.truncated };
  }

  /** The root cause of the current failover while FAILING or RESTARTING, and of the failure once FAILED. */
  get failoverCause(): WeirError | undefined {
    const status = this.status;
    return status === JobStatus.FAILING || status === JobStatus.RESTARTING || status === JobStatus.FAILED ? this.#ctx.rootCause : undefined;
  }

  get restartStrategyName(): string {
    return this.#ctx.restartStrategyName;
  }

  /** The current attempt's subtasks; empty until the job is deployed. */
  subtasks(): readonly SubtaskExecution[] {
    return this.#ctx.execution?.all() ?? [];
  }

  /** The job's checkpoints, newest first; empty for a job without checkpointing. */
  checkpoints(): CheckpointHistoryView {
    return this.#checkpoints?.view() ?? EMPTY_HISTORY;
  }

  /** Starts waiting for slots, deploying at once if there are enough. */
  start(): void {
    this.#deps.logger.info(
      {
        jobName: this.spec.jobGraph.jobName,
        vertices: this.spec.jobGraph.vertices.length,
        checkpointIntervalMs: this.spec.settings.checkpointing?.intervalMs,
        restartStrategy: this.spec.settings.restartStrategy.kind,
      },
      'job submitted',
    );
    this.#timers.start(JobTimer.SLOT_REQUEST, this.#deps.slotRequestTimeoutMs);
    this.slotsMayBeAvailable();
  }

  /** A new leader took the job over: it restores the latest retained checkpoint as a restart does. */
  recover(): void {
    this.#deps.logger.info({ jobName: this.spec.jobGraph.jobName, checkpoints: this.#options.recovered?.map((c) => c.checkpointId) }, 'recovering the job');
    this.#handle((s) => s.onRecover(this.#ctx));
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

  acknowledgeCheckpoint(ack: FromTaskManager<CheckpointAck>): void {
    this.#checkpoints?.acknowledge(ack);
  }

  declineCheckpoint(decline: FromTaskManager<CheckpointDecline>): void {
    this.#checkpoints?.decline(decline);
  }

  /** A task's input ended and it waits for its final checkpoint: once every task does, the coordinator takes it at once. */
  awaitingFinalCheckpoint(message: FromTaskManager<AwaitingFinalCheckpoint>): void {
    this.#checkpoints?.awaitingFinalCheckpoint(message);
  }

  /** A split source's reader event: goes to its enumerator; a collect sink's rows go to the job's buffer. */
  operatorEvent(message: ReaderEventMessage): void {
    if (message.event.kind === 'collect-rows') this.results.receive(message, message.event.rows);
    else this.#sources?.readerEvent(message);
  }

  /** Throws why no savepoint can be taken of the job now: no checkpointing, not RUNNING, one in progress, tasks not running. */
  checkSavepointPossible(): void {
    this.#savepointCoordinator().checkSavepointPossible();
  }

  /**
   * Takes a savepoint into `target`; resolves once its `_metadata` is written. Then `cancel`
   * cancels the job, and `stop` lets it finish: its sources ended at the savepoint and its
   * sinks commit it.
   */
  async triggerSavepoint(target: SavepointTarget, mode: SavepointMode): Promise<CompletedSavepoint> {
    const coordinator = this.#savepointCoordinator();
    const savepoint = await coordinator.triggerSavepoint(target, mode.kind === 'stop' ? mode.terminate : undefined);
    if (mode.kind === 'cancel') {
      this.#deps.logger.info({ checkpointId: savepoint.checkpointId }, `cancelling the job after savepoint ${savepoint.checkpointId}`);
      this.cancel();
    }
    return savepoint;
  }

  /** An on-demand checkpoint (`full`: every state file), resolved once completed; CHECKPOINTING_NOT_ENABLED, JOB_NOT_RUNNING. */
  triggerCheckpoint(full: boolean): Promise<CompletedCheckpointInfo> {
    const enable = 'enable checkpointing (env.enableCheckpointing or execution.checkpointing.interval) to trigger one';
    if (this.#checkpoints === undefined) throw new WeirError(JobManagerErrorCode.CHECKPOINTING_NOT_ENABLED, `job ${this.jobId} takes no checkpoints; ${enable}`);
    if (this.status !== JobStatus.RUNNING) throw new WeirError(JobManagerErrorCode.JOB_NOT_RUNNING, `job ${this.jobId} is ${this.status}; a checkpoint can only be taken of a RUNNING job`);
    return this.#checkpoints.triggerCheckpoint(full);
  }

  /** Asks the job to cancel and returns its status after that. */
  cancel(): JobStatus {
    this.#handle((s) => s.onCancel(this.#ctx));
    return this.status;
  }

  /** Stops the job's timers for the JobManager's shutdown, so nothing fires later or keeps the process alive; checkpoints stay. */
  shutDown(): void {
    this.#timers.stopAll();
    this.#checkpoints?.suspend();
    void this.#sources?.close();
    void this.#userCode?.close();
  }

  /** Calls `listener` with every status change from now on; returns the unsubscribe function. */
  onStatusChange(listener: JobStatusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #savepointCoordinator(): CheckpointCoordinator {
    if (this.#checkpoints === undefined) {
      throw new WeirError(
        JobManagerErrorCode.SAVEPOINT_NOT_SUPPORTED,
        `job ${this.jobId} takes no checkpoints, so it cannot take savepoints; enable checkpointing (env.enableCheckpointing or execution.checkpointing.interval) to take savepoints`,
      );
    }
    if (this.status !== JobStatus.RUNNING) {
      throw new WeirError(JobManagerErrorCode.JOB_NOT_RUNNING, `job ${this.jobId} is ${this.status}; a savepoint can only be taken of a RUNNING job`);
    }
    return this.#checkpoints;
  }

  #restoreLoaded(attempt: number, outcome: RestoreOutcome): void {
    if (attempt !== this.#ctx.attempt) return;
    this.#handle((s) => s.onRestoreLoaded(this.#ctx, outcome));
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
    if (previous === state.status) return;
    this.#statusTimestamps[state.status] = this.#deps.clock.now();
    this.#steerCheckpoints(previous, state.status);
    if (isGloballyTerminal(state.status)) {
      releaseEndedJob({
        status: state.status as JobEndStatus,
        failureCause: this.failureCause,
        logger: this.#deps.logger,
        checkpoints: this.#checkpoints,
        sources: this.#sources,
        userCode: this.#userCode,
        hasSplitSources: (this.spec.splitSources ?? []).length > 0,
        recordEnd: this.#options.recordEnd,
      });
      this.#endTimeMs = this.#deps.clock.now();
      this.#timers.stopAll();
      this.#deps.slotPool.release(this.spec.jobId);
    }
    const cause = this.#ctx.rootCause;
    if (state.status === JobStatus.FAILED || state.status === JobStatus.FAILING) {
      this.#deps.logger.warn({ from: previous, to: state.status, attempt: this.#ctx.attempt, code: cause?.code, cause: cause?.message }, 'job status changed');
    } else {
      this.#deps.logger.info({ from: previous, to: state.status, attempt: this.#ctx.attempt }, 'job status changed');
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(state.status);
      } catch (err) {
        this.#deps.logger.error({ err }, 'job status listener threw');
      }
    }
  }

  /** Checkpoints are taken while an attempt runs; a failover aborts the pending ones (the job's end: releaseEndedJob). */
  #steerCheckpoints(previous: JobStatus, status: JobStatus): void {
    const checkpoints = this.#checkpoints;
    if (checkpoints === undefined) return;
    if (status === JobStatus.RUNNING) {
      checkpoints.start(this.#ctx.execution!);
    } else if (previous === JobStatus.RUNNING) {
      checkpoints.stop(status === JobStatus.FAILING ? CheckpointFailureReason.TASK_FAILURE : CheckpointFailureReason.JOB_ENDED);
    }
  }
}
