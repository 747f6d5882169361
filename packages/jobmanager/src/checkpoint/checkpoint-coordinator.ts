import type { JobGraph } from '@weir/api';
import {
  CheckpointFailureReason,
  TaskState,
  describeError,
  type WeirError,
  type CheckpointMetadata,
  type Clock,
  type JobStatus,
  type Logger,
} from '@weir/common';
import type { Execution } from '../job/execution.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';
import { subtaskName } from '../job/task-name.ts';
import type { CheckpointingSettings } from '../settings/job-settings.ts';
import { CheckpointHistory, type CheckpointHistoryView } from './checkpoint-history.ts';
import type { CheckpointAck, CheckpointDecline, CheckpointTask } from './checkpoint-messages.ts';
import { buildCheckpointMetadata, encodeMetadata } from './checkpoint-metadata.ts';
import { CheckpointMessenger } from './checkpoint-messenger.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import { CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import { CheckpointFailureCounter } from './failure-counter.ts';
import { AckOutcome, PendingCheckpoint } from './pending-checkpoint.ts';
import { loadRestoreOutcome, type RestoreOutcome, type RestorePoint } from './restore-point.ts';
import { applyRetention } from './retention.ts';
import { TriggerSchedule } from './trigger-schedule.ts';

export interface CheckpointCoordinatorDeps {
  readonly jobId: string;
  readonly jobGraph: JobGraph;
  readonly settings: CheckpointingSettings;
  /** undefined: the memory backend without a directory, whose `_metadata` stays in memory. */
  readonly storage: JobCheckpointStorage | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly gateway: TaskManagerGateway;
  /** Fails the job over: more consecutive checkpoints failed than tolerable. */
  readonly failJob: (cause: WeirError) => void;
}

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
  readonly #pending = new Map<number, PendingCheckpoint>();
  /** Checkpoints with every ack in whose `_metadata` is being written. */
  readonly #finalizing = new Map<number, Promise<void>>();
  /** The attempt being checkpointed; undefined while no attempt runs. */
  #execution: Execution | undefined;
  readonly #failures: CheckpointFailureCounter;
  #lastCheckpointId = 0;
  /** The job ended or the JobManager stopped: the storage is released. */
  #released = false;

  constructor(deps: CheckpointCoordinatorDeps) {
    this.#deps = deps;
    this.#store = new CompletedCheckpointStore(deps.settings.numRetained);
    this.#failures = new CheckpointFailureCounter(deps.settings.tolerableFailures);
    this.#messenger = new CheckpointMessenger(deps.jobId, deps.jobGraph, deps.gateway);
    this.#schedule = new TriggerSchedule(deps.clock, deps.settings, () => this.#onTriggerTime());
  }

  /** Starts triggering for a newly running attempt, the first checkpoint one interval from now. */
  start(execution: Execution): void {
    this.#execution = execution;
    this.#failures.reset();
    this.#schedule.restart();
    this.#reschedule();
  }

  /** Stops triggering and aborts the pending checkpoints with `reason`; the tasks are going away, so they are not told. */
  stop(reason: CheckpointFailureReason): void {
    this.#execution = undefined;
    this.#schedule.cancel();
    const why = reason === CheckpointFailureReason.TASK_FAILURE ? 'the job failed over' : 'the job ended';
    for (const pending of [...this.#pending.values()]) this.#abort(pending, reason, `${why} while checkpoint ${pending.checkpointId} was pending`);
  }

  acknowledge(ack: CheckpointAck): void {
    const pending = this.#pending.get(ack.checkpointId);
    if (pending === undefined) {
      this.#discardLate(ack);
      return;
    }
    if (!this.#fromCurrentTask(pending, ack)) return;
    const outcome = pending.acknowledge(ack);
    if (outcome !== AckOutcome.ACCEPTED) {
      this.#deps.logger.debug({ checkpointId: ack.checkpointId, vertexId: ack.vertexId, subtask: ack.subtaskIndex, outcome }, 'ignoring an acknowledgement');
      return;
    }
    this.#history.acknowledged(ack.checkpointId, ack.metrics);
    this.#deps.logger.debug({ checkpointId: ack.checkpointId, vertexId: ack.vertexId, subtask: ack.subtaskIndex, ...ack.metrics }, 'checkpoint acknowledged');
    if (pending.fullyAcknowledged) this.#finalize(pending);
  }

  decline(decline: CheckpointDecline): void {
    const pending = this.#pending.get(decline.checkpointId);
    if (pending === undefined) {
      this.#discardLate(decline);
      return;
    }
    if (!this.#fromCurrentTask(pending, decline)) return;
    const task = subtaskName(this.#deps.jobGraph, decline.vertexId, decline.subtaskIndex);
    this.#abort(pending, decline.reason, `${task} declined checkpoint ${decline.checkpointId}: ${decline.message}`);
  }

  /** What the next attempt restores, once the `_metadata` writes in flight have settled. */
  async restoreOutcome(): Promise<RestoreOutcome> {
    await Promise.allSettled(this.#finalizing.values());
    const { jobId, jobGraph, storage, logger } = this.#deps;
    return loadRestoreOutcome({ jobId, jobGraph, store: this.#store, storage, logger });
  }

  /** The next attempt starts from `point`: IDs continue above it. */
  restored(point: RestorePoint): void {
    this.#history.restored(point.checkpointId);
    this.#lastCheckpointId = Math.max(this.#lastCheckpointId, point.checkpointId);
  }

  view(): CheckpointHistoryView {
    return this.#history.view(this.#deps.clock.now());
  }

  /** Applies the retention policy for a job that ended with `status`, then releases the storage. */
  async jobEnded(status: JobStatus): Promise<void> {
    this.stop(CheckpointFailureReason.JOB_ENDED);
    await Promise.allSettled(this.#finalizing.values());
    const { settings, storage, logger } = this.#deps;
    await applyRetention({ cleanup: settings.externalizedCleanup, store: this.#store, history: this.#history, storage, logger }, status);
    this.#released = true;
    await storage?.close();
  }

  /** The JobManager shuts down: no more timers, and everything on storage stays for whoever resumes the job. */
  suspend(): void {
    this.#execution = undefined;
    this.#schedule.cancel();
    for (const pending of this.#pending.values()) this.#clearTimeout(pending);
    this.#released = true;
    this.#deps.storage?.closeNow();
  }

  #reschedule(): void {
    if (this.#execution === undefined) this.#schedule.cancel();
    else this.#schedule.reschedule(this.#pending.size + this.#finalizing.size);
  }

  #onTriggerTime(): void {
    this.#schedule.fired();
    const execution = this.#execution;
    if (execution === undefined) return;
    const now = this.#deps.clock.now();
    const notRunning = execution.all().filter((s) => s.state !== TaskState.RUNNING);
    if (notRunning.length === 0) {
      this.#trigger(execution, now);
    } else {
      this.#deps.logger.debug(
        { nextCheckpointId: this.#lastCheckpointId + 1, notRunning: notRunning.length },
        'skipping a checkpoint: not every task is running',
      );
    }
    this.#reschedule();
  }

  #trigger(execution: Execution, now: number): void {
    const checkpointId = ++this.#lastCheckpointId;
    const subtasks = execution.all();
    const pending = new PendingCheckpoint(checkpointId, execution.attempt, now, subtasks);
    pending.timeout = this.#deps.clock.setTimeout(() => this.#expire(pending), this.#deps.settings.timeoutMs);
    this.#pending.set(checkpointId, pending);
    this.#history.started(checkpointId, now, subtasks.length, this.#deps.storage?.checkpointUrl(checkpointId) ?? '');
    this.#deps.logger.info({ checkpointId, attempt: execution.attempt }, `triggering checkpoint ${checkpointId}`);
    const unreachable = this.#messenger.trigger(execution, checkpointId, now);
    if (unreachable.length > 0) {
      const names = unreachable.map((s) => subtaskName(this.#deps.jobGraph, s.vertexId, s.index));
      this.#abort(pending, CheckpointFailureReason.TASK_NOT_READY, `the TaskManagers of ${names.join(', ')} are not connected`);
    }
  }

  #expire(pending: PendingCheckpoint): void {
    pending.timeout = undefined;
    if (this.#pending.get(pending.checkpointId) !== pending) return;
    const waiting = pending.waitingFor().map((s) => subtaskName(this.#deps.jobGraph, s.vertexId, s.index));
    const shown = waiting.length > 5 ? [...waiting.slice(0, 5), `${waiting.length - 5} more`] : waiting;
    const { checkpointId, acknowledgedCount, totalTasks } = pending;
    const timeout = this.#deps.settings.timeoutMs;
    const message = `checkpoint ${checkpointId} expired after the checkpoint timeout of ${timeout} ms with ${acknowledgedCount} of ${totalTasks} tasks acknowledged; still waiting for ${shown.join(', ')}`;
    this.#abort(pending, CheckpointFailureReason.EXPIRED, message);
  }

  #finalize(pending: PendingCheckpoint): void {
    const { checkpointId } = pending;
    this.#pending.delete(checkpointId);
    this.#clearTimeout(pending);
    const metadata = buildCheckpointMetadata({
      jobId: this.#deps.jobId,
      jobGraph: this.#deps.jobGraph,
      checkpointId,
      timestamp: pending.timestamp,
      stateOf: (vertexId, index) => pending.stateOf(vertexId, index),
    });
    const storage = this.#deps.storage;
    const finalizing = (async () => {
      try {
        await storage?.writeMetadata(checkpointId, encodeMetadata(metadata));
      } catch (err) {
        this.#fail(
          pending,
          CheckpointFailureReason.STORAGE_FAILURE,
          `could not write ${storage!.metadataLocation(checkpointId)}: ${describeError(err)}`,
        );
        return;
      }
      this.#complete(pending, metadata);
    })().finally(() => {
      this.#finalizing.delete(checkpointId);
      this.#reschedule();
    });
    this.#finalizing.set(checkpointId, finalizing);
  }

  #complete(pending: PendingCheckpoint, metadata: CheckpointMetadata): void {
    const { checkpointId } = pending;
    const now = this.#deps.clock.now();
    this.#schedule.completed();
    this.#failures.reset();
    this.#history.completed(checkpointId, now);
    const externalPath = this.#deps.storage?.checkpointUrl(checkpointId) ?? '';
    const subsumed = this.#store.add({ checkpointId, timestamp: pending.timestamp, metadata, externalPath });
    this.#deps.logger.info(
      { checkpointId, durationMs: now - pending.timestamp, path: externalPath || undefined, subsumed: subsumed.map((c) => c.checkpointId) },
      `checkpoint ${checkpointId} completed`,
    );
    for (const old of subsumed) {
      this.#history.discarded(old.checkpointId);
      this.#deps.storage?.discardCheckpoint(old.checkpointId);
    }
    for (const older of [...this.#pending.values()].filter((p) => p.checkpointId < checkpointId)) {
      this.#abort(older, CheckpointFailureReason.SUBSUMED, `checkpoint ${checkpointId} completed first`);
    }
    const execution = this.#execution;
    if (execution !== undefined && execution.attempt === pending.attempt) this.#messenger.notify(execution, checkpointId, true);
  }

  #abort(pending: PendingCheckpoint, reason: CheckpointFailureReason, message: string): void {
    this.#pending.delete(pending.checkpointId);
    this.#clearTimeout(pending);
    this.#fail(pending, reason, message);
    this.#reschedule();
  }

  /** Records the failure, tells the tasks, deletes what was written, and fails the job over past the tolerable number. */
  #fail(pending: PendingCheckpoint, reason: CheckpointFailureReason, message: string): void {
    const { checkpointId } = pending;
    this.#history.failed(checkpointId, this.#deps.clock.now(), `${reason}: ${message}`);
    this.#deps.logger.warn({ checkpointId, reason }, `checkpoint ${checkpointId} failed: ${message}`);
    const execution = this.#execution;
    if (execution !== undefined && execution.attempt === pending.attempt) this.#messenger.notify(execution, checkpointId, false);
    this.#deps.storage?.discardCheckpoint(checkpointId);
    const failover = this.#failures.failed(reason, message);
    if (failover !== undefined && execution !== undefined) this.#deps.failJob(failover);
  }

  /** A task answered a checkpoint that is no longer pending: unless it completed, what the task wrote for it is garbage. */
  #discardLate(message: CheckpointTask): void {
    const { checkpointId } = message;
    if (this.#released || this.#finalizing.has(checkpointId) || this.#store.has(checkpointId)) return;
    this.#deps.logger.debug({ checkpointId, vertexId: message.vertexId, subtask: message.subtaskIndex }, 'discarding what a task wrote for a checkpoint no longer pending');
    this.#deps.storage?.discardCheckpoint(checkpointId);
  }

  #fromCurrentTask(pending: PendingCheckpoint, message: CheckpointTask): boolean {
    const subtask = this.#execution?.get(message.vertexId, message.subtaskIndex);
    return (
      message.attempt === pending.attempt &&
      this.#execution?.attempt === pending.attempt &&
      subtask?.taskManagerId === message.taskManagerId &&
      pending.includes(message.vertexId, message.subtaskIndex)
    );
  }

  #clearTimeout(pending: PendingCheckpoint): void {
    if (pending.timeout !== undefined) this.#deps.clock.clearTimeout(pending.timeout);
    pending.timeout = undefined;
  }
}
