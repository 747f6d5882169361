import {
  CHECKPOINT_OPTIONS,
  CheckpointFailureReason,
  declineSentence,
  WeirError,
  type AwaitingFinalCheckpoint,
  type CheckpointAck,
  type CheckpointDecline,
  type CheckpointMetadata,
  type JobStatus,
} from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';
import type { Execution } from '../job/execution.ts';
import { subtaskName } from '../job/task-name.ts';
import type { StopTermination } from '../savepoint/savepoint-mode.ts';
import type { CompletedSavepoint, SavepointOperation } from '../savepoint/savepoint-operation.ts';
import { SavepointTracker } from '../savepoint/savepoint-tracker.ts';
import type { SavepointTarget } from '../savepoint/savepoint-target.ts';
import { CheckpointHistory, type CheckpointHistoryView } from './checkpoint-history.ts';
import { CheckpointMessenger } from './checkpoint-messenger.ts';
import { triggerCheckpoint, type CheckpointTriggerDeps, type TriggerOutcome } from './checkpoint-trigger.ts';
import type { CheckpointCoordinatorDeps } from './checkpoint-coordinator-deps.ts';
import { CheckpointFiles } from './checkpoint-files.ts';
import { writeCheckpoint, type CheckpointWriterDeps } from './checkpoint-writer.ts';
import { FinalCheckpointWatch } from './final-checkpoint-watch.ts';
import { isFromCurrentTask, isFromDeployedTask, type FromTaskManager } from './from-task-manager.ts';
import { CompletedCheckpointStore, subsumedByNewer } from './completed-checkpoint-store.ts';
import { CheckpointFailureCounter } from './failure-counter.ts';
import { FinishedTaskState } from './finished-task-state.ts';
import { AckOutcome, PendingCheckpoint } from './pending-checkpoint.ts';
import type { InitialRestore, RestoreOutcome, RestorePoint } from './restore-point.ts';
import { CheckpointRestores } from './checkpoint-restores.ts';
import { applyRetention } from './retention.ts';
import { TriggerSchedule } from './trigger-schedule.ts';
import { InFlightCheckpoints } from './in-flight-checkpoints.ts';
import { CheckpointIds } from './checkpoint-ids.ts';
import { CheckpointSweeper } from './checkpoint-sweeper.ts';
import { OnDemandCheckpoints, type CompletedCheckpointInfo } from './on-demand-checkpoints.ts';

/**
 * Takes a job's checkpoints: triggers them periodically while an attempt runs, collects the
 * acknowledgements, writes `_metadata` last, keeps num-retained completed checkpoints, tells
 * the tasks the outcome, and fails the job over when too many fail in a row. It outlives
 * attempts, so checkpoint IDs keep rising across restarts.
 */
export class CheckpointCoordinator {
  readonly #deps: CheckpointCoordinatorDeps;
  readonly #store: CompletedCheckpointStore;
  readonly #history = new CheckpointHistory();
  readonly #messenger: CheckpointMessenger;
  readonly #schedule: TriggerSchedule;
  readonly #inFlight: InFlightCheckpoints;
  /** What of the checkpoint directory is deleted, and when. */
  readonly #files: CheckpointFiles;
  /** The attempt being checkpointed; undefined while no attempt runs. */
  #execution: Execution | undefined;
  readonly #failures: CheckpointFailureCounter;
  readonly #savepoints: SavepointTracker;
  /** Who takes part in a checkpoint once tasks finished, and the state carried for the others. */
  readonly #finishedTasks: FinishedTaskState;
  /** When every task of a bounded job waits for its final checkpoint: then it is triggered at once. */
  readonly #finalCheckpoint: FinalCheckpointWatch;
  readonly #writer: CheckpointWriterDeps;
  readonly #triggerDeps: CheckpointTriggerDeps;
  readonly #ids: CheckpointIds;
  readonly #sweeper: CheckpointSweeper;
  readonly #onDemand = new OnDemandCheckpoints();
  readonly #restores: CheckpointRestores;

  constructor(deps: CheckpointCoordinatorDeps) {
    this.#deps = deps;
    this.#store = new CompletedCheckpointStore(deps.settings.numRetained);
    this.#ids = new CheckpointIds(deps.ha);
    for (const checkpoint of deps.recovered ?? []) {
      this.#store.add(checkpoint);
      this.#ids.observe(checkpoint.checkpointId);
    }
    this.#inFlight = new InFlightCheckpoints(deps.clock);
    this.#failures = new CheckpointFailureCounter(deps.settings.tolerableFailures);
    this.#files = new CheckpointFiles(deps.storage);
    const swept = { inUse: (id: number) => this.#inUse(id), retained: () => this.#store.newestFirst(), nothingInFlight: () => this.#inFlight.size === 0 };
    this.#sweeper = new CheckpointSweeper(this.#files, swept, () => deps.clock.now(), deps.logger);
    this.#messenger = new CheckpointMessenger(deps.jobId, deps.gateway);
    this.#finishedTasks = new FinishedTaskState(deps.jobGraph, this.#store, deps.storage);
    this.#finalCheckpoint = new FinalCheckpointWatch(deps.jobGraph);
    const { jobId, jobGraph, storage, ha, settings } = deps;
    this.#writer = { jobId, jobGraph, storage, ha, numRetained: settings.numRetained, store: this.#store, finishedTasks: this.#finishedTasks };
    this.#savepoints = new SavepointTracker({ jobGraph: deps.jobGraph, history: this.#history, clock: deps.clock, logger: deps.logger });
    const [ids, inFlight, history, savepoints, finishedTasks, messenger] = [this.#ids, this.#inFlight, this.#history, this.#savepoints, this.#finishedTasks, this.#messenger];
    const abort = (pending: PendingCheckpoint, reason: CheckpointFailureReason, message: string): void => this.#abort(pending, reason, message);
    this.#triggerDeps = { jobGraph, storage, logger: deps.logger, timeoutMs: settings.timeoutMs, sources: deps.sources, ids, inFlight, history, savepoints, finishedTasks, messenger, abort };
    this.#schedule = new TriggerSchedule(deps.clock, deps.settings, () => this.#onTriggerTime());
    this.#restores = new CheckpointRestores({ deps, store: this.#store, inFlight, files: this.#files, sweeper: this.#sweeper, ids, history });
  }

  /**
   * Starts triggering for a newly running attempt, the first checkpoint one interval from now;
   * after a restore at once (min-pause still applies). Output the restored attempt produced is
   * committed only by its first checkpoint: Flink waits an interval for it, so the time from a
   * failure to committed output was restore + interval; now it is restore + one checkpoint.
   */
  start(execution: Execution): void {
    this.#execution = execution;
    this.#savepoints.attemptStarted();
    this.#failures.reset();
    this.#schedule.restart();
    if (this.#restores.takeRestoring()) this.#schedule.expedite();
    this.#reschedule();
  }

  /** Stops triggering and aborts the pending checkpoints with `reason`; the tasks are going away, so they are not told. */
  stop(reason: CheckpointFailureReason): void {
    this.#execution = undefined;
    this.#schedule.cancel();
    const why = reason === CheckpointFailureReason.TASK_FAILURE ? 'the job failed over' : 'the job ended';
    for (const pending of this.#inFlight.pending()) this.#abort(pending, reason, `${why} while checkpoint ${pending.checkpointId} was pending`);
  }

  acknowledge(ack: FromTaskManager<CheckpointAck>): void {
    const pending = this.#inFlight.get(ack.checkpointId);
    if (pending === undefined) {
      this.#discardLate(ack);
      return;
    }
    if (!isFromCurrentTask(ack, pending, this.#execution)) return;
    const outcome = pending.acknowledge(ack);
    if (outcome !== AckOutcome.ACCEPTED) {
      this.#deps.logger.debug({ checkpointId: ack.checkpointId, vertexId: ack.task.vertexId, subtask: ack.task.subtaskIndex, outcome }, 'ignoring an acknowledgement');
      return;
    }
    this.#history.acknowledged(ack.checkpointId, ack.metrics);
    this.#deps.logger.debug({ checkpointId: ack.checkpointId, vertexId: ack.task.vertexId, subtask: ack.task.subtaskIndex, ...ack.metrics }, 'checkpoint acknowledged');
    if (pending.savepoint !== undefined) this.#savepoints.acknowledged(pending);
    if (pending.fullyAcknowledged) this.#finalize(pending);
  }

  /** A task declined: the checkpoint aborts with its reason, the task named once (the task's message does not name it). */
  decline(decline: FromTaskManager<CheckpointDecline>): void {
    const pending = this.#inFlight.get(decline.checkpointId);
    if (pending === undefined) {
      this.#discardLate(decline);
      return;
    }
    if (!isFromCurrentTask(decline, pending, this.#execution)) return;
    const task = subtaskName(this.#deps.jobGraph, decline.task.vertexId, decline.task.subtaskIndex);
    this.#abort(pending, decline.reason, declineSentence(task, decline));
  }

  /** A subtask finished: the pending checkpoints still waiting for it never get its acknowledgement (a task drops those in flight when it ends). */
  taskFinished(vertexId: string, index: number): void {
    for (const pending of this.#inFlight.pending()) {
      if (pending.attempt !== this.#execution?.attempt || !pending.awaits(vertexId, index)) continue;
      const task = subtaskName(this.#deps.jobGraph, vertexId, index);
      this.#abort(pending, CheckpointFailureReason.TASK_NOT_READY, `${task} finished before it acknowledged checkpoint ${pending.checkpointId}`);
    }
    this.#expediteFinalCheckpoint();
  }

  /** A task's input ended and it waits for its final checkpoint (see final-checkpoint-watch.ts). */
  awaitingFinalCheckpoint(message: FromTaskManager<AwaitingFinalCheckpoint>): void {
    if (!isFromDeployedTask(message, this.#execution)) return;
    const { task } = message;
    this.#finalCheckpoint.inputEnded(task.attempt, task.vertexId, task.subtaskIndex, message.lastCheckpointBeforeEnd);
    this.#expediteFinalCheckpoint();
  }

  /** What the next attempt restores (checkpoint-restores.ts). */
  restoreOutcome(initial?: InitialRestore): Promise<RestoreOutcome> {
    return this.#restores.outcome(initial);
  }

  /** A task found checkpoint `checkpointId`'s state corrupt while restoring it: the previous retained one is tried instead. */
  corruptCheckpoint(checkpointId: number, why: string): void {
    this.#restores.corrupt(checkpointId, why);
  }

  /** The next attempt starts from `point`: IDs continue above it, and its first checkpoint is due at once. */
  restored(point: RestorePoint): void {
    this.#restores.restored(point);
  }

  /** The history, with what the last count after a sweep found left behind in the checkpoint directory. */
  view(): CheckpointHistoryView {
    return { ...this.#history.view(this.#deps.clock.now()), leftBehind: this.#sweeper.leftBehind };
  }

  /** Throws why no savepoint can be triggered now: one in progress, the job stopping, no attempt running, tasks not running. */
  checkSavepointPossible(): void {
    this.#savepoints.check(this.#execution);
  }

  /**
   * Triggers a savepoint into `target` at once, whatever the interval, min-pause or concurrent
   * checkpoints; resolves once its `_metadata` is written, rejects with SAVEPOINT_FAILED. With
   * `terminate` (stop) it is committed and becomes the job's restore point, and the tasks are
   * brought to an end.
   */
  triggerSavepoint(target: SavepointTarget, terminate?: StopTermination): Promise<CompletedSavepoint> {
    const execution = this.#savepoints.check(this.#execution);
    if (this.#deps.ha !== undefined && !this.#deps.ha.available()) {
      throw new WeirError(JobManagerErrorCode.SAVEPOINT_FAILED, 'no checkpoint ID could be reserved in etcd (high availability): etcd is unreachable or this JobManager no longer leads; try again');
    }
    const operation = this.#savepoints.begin(target, terminate);
    this.#trigger(execution, this.#deps.clock.now(), operation);
    this.#reschedule();
    return operation.promise;
  }

  /**
   * A checkpoint now, whatever the interval or min-pause (Flink 1.19's on-demand checkpoint;
   * `full`: CheckpointType.FULL), resolved once completed; JOB_NOT_RUNNING, SAVEPOINT_IN_PROGRESS,
   * or CHECKPOINT_FAILED when none can be triggered now or it fails.
   */
  triggerCheckpoint(full: boolean): Promise<CompletedCheckpointInfo> {
    const execution = this.#execution;
    if (execution === undefined) throw new WeirError(JobManagerErrorCode.JOB_NOT_RUNNING, 'the job has no running attempt; trigger the checkpoint once it is RUNNING');
    const inProgress = 'a savepoint of this job is in progress (a checkpoint now would overtake its barriers); trigger the checkpoint once it completed';
    if (this.#savepoints.inProgress) throw new WeirError(JobManagerErrorCode.SAVEPOINT_IN_PROGRESS, inProgress);
    const checkpoint = this.#onDemand.trigger(() => {
      const outcome = this.#trigger(execution, this.#deps.clock.now(), undefined, full);
      if ('skipped' in outcome) throw new WeirError(JobManagerErrorCode.CHECKPOINT_FAILED, `no checkpoint can be triggered now: ${outcome.skipped}`);
      return outcome.checkpointId;
    });
    this.#reschedule();
    return checkpoint;
  }

  /** Applies the retention policy for a job that ended with `status`, then releases the storage. */
  async jobEnded(status: JobStatus): Promise<void> {
    this.stop(CheckpointFailureReason.JOB_ENDED);
    await this.#inFlight.settled();
    const { settings, storage, logger } = this.#deps;
    this.#files.jobEnded();
    await this.#sweeper.sweep(this.#ids.last);
    // Every task has stopped, so no upload is in flight: what no retained checkpoint refers to is garbage.
    await this.#files.sweepShared(this.#store.newestFirst());
    await applyRetention({ cleanup: settings.externalizedCleanup, store: this.#store, history: this.#history, storage, logger }, status);
    await this.#sweeper.count(this.#ids.last);
    this.#sweeper.release();
    await storage?.close();
  }

  /** The JobManager shuts down: no more timers, and everything on storage stays for whoever resumes the job. */
  suspend(): void {
    this.#execution = undefined;
    this.#schedule.cancel();
    this.#inFlight.clearTimeouts();
    this.#onDemand.failAll(new WeirError(JobManagerErrorCode.CHECKPOINT_FAILED, 'the JobManager shut down before the checkpoint completed'));
    this.#sweeper.release();
    this.#deps.storage?.closeNow();
  }

  #reschedule(): void {
    if (this.#execution === undefined) this.#schedule.cancel();
    else this.#schedule.reschedule(this.#inFlight.size);
  }

  /**
   * Once every task waits for its final checkpoint and none is in flight (the next one after
   * those is enough), the next trigger is due now: min-pause still applies.
   */
  #expediteFinalCheckpoint(): void {
    const execution = this.#execution;
    if (execution === undefined || this.#inFlight.size > 0 || !this.#finalCheckpoint.takeDue(execution)) return;
    this.#deps.logger.info({ attempt: execution.attempt }, 'every task awaits its final checkpoint: triggering it now rather than at the next interval');
    this.#schedule.expedite();
    this.#reschedule();
  }

  #onTriggerTime(): void {
    this.#schedule.fired();
    const execution = this.#execution;
    if (execution === undefined) return;
    if (this.#savepoints.inProgress) {
      // A newer barrier would subsume the savepoint's during alignment: the savepoint goes first.
      this.#deps.logger.debug({ nextCheckpointId: this.#ids.last + 1 }, 'skipping a checkpoint: a savepoint is in progress');
    } else {
      this.#trigger(execution, this.#deps.clock.now());
    }
    this.#reschedule();
  }

  #trigger(execution: Execution, now: number, savepoint?: SavepointOperation, full = false): TriggerOutcome {
    return triggerCheckpoint(this.#triggerDeps, execution, now, savepoint, full);
  }

  #finalize(pending: PendingCheckpoint): void {
    this.#inFlight.remove(pending);
    const writing = writeCheckpoint(this.#writer, pending, this.#inFlight.finalizingWrites()).then((outcome) => {
      if (outcome.kind === 'failed') this.#fail(pending, outcome.reason, outcome.message, outcome.keepFiles);
      else if (outcome.kind === 'savepoint-written') this.#savepoints.written(pending, outcome.savepoint);
      else this.#complete(pending, outcome.metadata);
    });
    this.#inFlight.finalizing(pending.checkpointId, writing, () => {
      this.#reschedule();
      this.#expediteFinalCheckpoint();
    });
  }

  #complete(pending: PendingCheckpoint, metadata: CheckpointMetadata): void {
    const { checkpointId } = pending;
    const overtaken = subsumedByNewer(this.#store, checkpointId);
    if (overtaken !== undefined) {
      // Its _metadata was written after a newer checkpoint's (they are written concurrently): that one subsumes it, as
      // it subsumed the pending ones. Retained after it, it would be what a restore goes back to, behind what the newer
      // one's completion told the tasks (sinks committed it).
      this.#fail(pending, CheckpointFailureReason.SUBSUMED, overtaken);
      return;
    }
    const now = this.#deps.clock.now();
    this.#schedule.completed();
    this.#finalCheckpoint.completed(pending.attempt, checkpointId);
    this.#failures.reset();
    this.#history.completed(checkpointId, now);
    const externalPath = pending.savepoint?.target.url ?? this.#deps.storage?.checkpointUrl(checkpointId) ?? '';
    const subsumed = this.#store.add({ checkpointId, timestamp: pending.timestamp, metadata, externalPath });
    this.#deps.logger.info(
      { checkpointId, durationMs: now - pending.timestamp, path: externalPath || undefined, subsumed: subsumed.map((c) => c.checkpointId) },
      `checkpoint ${checkpointId} completed`,
    );
    for (const old of subsumed) this.#history.discarded(old.checkpointId);
    if (pending.savepoint === undefined) this.#onDemand.completed({ checkpointId, path: externalPath });
    this.#files.completed(checkpointId, metadata, subsumed, pending.savepoint === undefined ? pending.acknowledgedStates() : undefined);
    this.#sweeper.checkpointCompleted(this.#ids.last);
    for (const older of this.#inFlight.pending().filter((p) => p.checkpointId < checkpointId)) {
      this.#abort(older, CheckpointFailureReason.SUBSUMED, `checkpoint ${checkpointId} completed first`);
    }
    const execution = this.#execution;
    if (execution !== undefined && execution.attempt === pending.attempt) {
      this.#messenger.notify(execution, checkpointId, true);
      this.#deps.sources?.checkpointComplete(checkpointId);
    }
    if (pending.savepoint !== undefined) this.#stopAfter(pending, pending.savepoint);
  }

  /** A stop-with-savepoint completed: after `suspend` the final checkpoint follows at once, so the tasks can finish. */
  #stopAfter(pending: PendingCheckpoint, savepoint: SavepointOperation): void {
    this.#savepoints.stopped(pending, savepoint);
    const execution = this.#execution;
    if (savepoint.terminate === 'suspend' && execution !== undefined && execution.attempt === pending.attempt) this.#trigger(execution, this.#deps.clock.now());
  }

  #abort(pending: PendingCheckpoint, reason: CheckpointFailureReason, message: string): void {
    this.#inFlight.remove(pending);
    this.#fail(pending, reason, message);
    this.#reschedule();
    this.#expediteFinalCheckpoint();
  }

  /** Records the failure, tells the tasks, deletes what was written, and fails the job over past the tolerable number. */
  #fail(pending: PendingCheckpoint, reason: CheckpointFailureReason, message: string, keepFiles = false): void {
    const { checkpointId } = pending;
    this.#history.failed(checkpointId, this.#deps.clock.now(), `${reason}: ${message}`);
    this.#deps.logger.warn({ checkpointId, reason }, `checkpoint ${checkpointId} failed: ${message}`);
    const execution = this.#execution;
    if (execution !== undefined && execution.attempt === pending.attempt) this.#messenger.notify(execution, checkpointId, false);
    if (pending.savepoint !== undefined) {
      const failover = this.#savepoints.failed(pending, pending.savepoint, reason, message);
      if (failover !== undefined && execution !== undefined) this.#deps.failJob(failover);
      return;
    }
    this.#onDemand.failed(checkpointId, new WeirError(JobManagerErrorCode.CHECKPOINT_FAILED, `checkpoint ${checkpointId} failed: ${reason}: ${message}`));
    if (!keepFiles) this.#files.discard(checkpointId, pending.acknowledgedStates());
    const failover = this.#failures.failed(reason, message);
    if (failover !== undefined && execution !== undefined) this.#deps.failJob(failover);
  }

  /** A task answered a checkpoint that is no longer pending: unless it completed, what the task wrote for it is garbage. */
  #discardLate(message: FromTaskManager<CheckpointAck | CheckpointDecline>): void {
    const { checkpointId } = message;
    if (this.#sweeper.released || this.#inUse(checkpointId)) return;
    this.#deps.logger.debug({ checkpointId, vertexId: message.task.vertexId, subtask: message.task.subtaskIndex }, 'discarding what a task wrote for a checkpoint no longer pending');
    this.#files.discard(checkpointId, 'state' in message ? Object.values(message.state.operators) : []);
  }

  /** Checkpoint `id` is retained (a corrupt one too), pending, being finalized, or a savepoint: its files stay. */
  #inUse(id: number): boolean {
    return this.#store.has(id) || this.#inFlight.has(id) || this.#restores.isCorrupt(id) || this.#savepoints.was(id);
  }
}
