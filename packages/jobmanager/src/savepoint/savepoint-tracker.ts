import type { JobGraph } from '@weir/api';
import { CheckpointFailureReason, TaskState, WeirError, type Clock, type Logger } from '@weir/common';
import { CheckpointKind, type CheckpointHistory } from '../checkpoint/checkpoint-history.ts';
import type { PendingCheckpoint } from '../checkpoint/pending-checkpoint.ts';
import { JobManagerErrorCode } from '../errors.ts';
import type { Execution } from '../job/execution.ts';
import { subtaskName } from '../job/task-name.ts';
import type { StopTermination } from './savepoint-mode.ts';
import { SavepointOperation } from './savepoint-operation.ts';
import type { SavepointTarget } from './savepoint-target.ts';

export interface SavepointTrackerDeps {
  readonly jobGraph: JobGraph;
  readonly history: CheckpointHistory;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * The coordinator's savepoint bookkeeping: one savepoint at a time, none once a stop's
 * savepoint completed (the sources have ended), the savepoints' history entries and the log
 * line of every phase.
 */
export class SavepointTracker {
  #current: SavepointOperation | undefined;
  #currentId = 0;
  /** The checkpoint ID of the stop-with-savepoint the current attempt is ending after. */
  #stoppedAfter: number | undefined;
  /** Checkpoint IDs that were savepoints: their files are not in the job's checkpoint directory. */
  readonly #ids = new Set<number>();

  constructor(private readonly deps: SavepointTrackerDeps) {}

  get inProgress(): boolean {
    return this.#current !== undefined;
  }

  /** Whether checkpoint `checkpointId` was a savepoint. */
  was(checkpointId: number): boolean {
    return this.#ids.has(checkpointId);
  }

  /** A new attempt runs: whatever stopped the last one is over. */
  attemptStarted(): void {
    this.#stoppedAfter = undefined;
  }

  /** The running attempt a savepoint can be taken of; throws SAVEPOINT_IN_PROGRESS or JOB_NOT_RUNNING saying why there is none. */
  check(execution: Execution | undefined): Execution {
    if (this.#current !== undefined) {
      throw new WeirError(
        JobManagerErrorCode.SAVEPOINT_IN_PROGRESS,
        `savepoint ${this.#currentId} of this job is still in progress (into ${this.#current.target.location()}); wait until it completes or fails, then trigger another`,
      );
    }
    if (this.#stoppedAfter !== undefined) {
      throw new WeirError(
        JobManagerErrorCode.JOB_NOT_RUNNING,
        `the job is stopping after its stop-with-savepoint (savepoint ${this.#stoppedAfter}); its sources have ended, so no further savepoint can be taken`,
      );
    }
    if (execution === undefined) throw new WeirError(JobManagerErrorCode.JOB_NOT_RUNNING, 'the job has no running attempt; trigger the savepoint once it is RUNNING');
    const notRunning = execution.all().filter((s) => s.state !== TaskState.RUNNING);
    if (notRunning.length > 0) {
      const named = notRunning.slice(0, 5).map((s) => `${subtaskName(this.deps.jobGraph, s.vertexId, s.index)} is ${s.state}`);
      const more = notRunning.length > 5 ? ` and ${notRunning.length - 5} more` : '';
      throw new WeirError(
        JobManagerErrorCode.JOB_NOT_RUNNING,
        `not every task of the job is running (${named.join(', ')}${more}); a savepoint needs all of them, try again once they are RUNNING`,
      );
    }
    return execution;
  }

  begin(target: SavepointTarget, terminate: StopTermination | undefined): SavepointOperation {
    this.#current = new SavepointOperation(target, terminate);
    return this.#current;
  }

  triggered(pending: PendingCheckpoint, savepoint: SavepointOperation): void {
    const { checkpointId, attempt, timestamp, totalTasks } = pending;
    this.#currentId = checkpointId;
    this.#ids.add(checkpointId);
    this.deps.history.started(checkpointId, timestamp, totalTasks, savepoint.target.url, CheckpointKind.SAVEPOINT);
    const where = savepoint.target.location();
    this.deps.logger.info({ checkpointId, attempt, terminate: savepoint.terminate, path: where }, `triggering savepoint ${checkpointId} into ${where}`);
  }

  acknowledged(pending: PendingCheckpoint): void {
    const { checkpointId, acknowledgedCount, totalTasks } = pending;
    this.deps.logger.info({ checkpointId, acknowledged: acknowledgedCount, totalTasks }, `savepoint ${checkpointId}: ${acknowledgedCount} of ${totalTasks} tasks acknowledged`);
  }

  /** A plain savepoint's `_metadata` is written: the job keeps running from its checkpoints, so it is neither retained nor committed. */
  written(pending: PendingCheckpoint, savepoint: SavepointOperation): void {
    const { checkpointId } = pending;
    const now = this.deps.clock.now();
    this.deps.history.savepointCompleted(checkpointId, now);
    this.#current = undefined;
    const where = savepoint.target.location();
    this.deps.logger.info({ checkpointId, durationMs: now - pending.timestamp, path: where }, `savepoint ${checkpointId} written to ${where}`);
    savepoint.completed(checkpointId);
  }

  /** A stop's savepoint is written and committed (the coordinator completed it as a checkpoint): the job is ending. */
  stopped(pending: PendingCheckpoint, savepoint: SavepointOperation): void {
    const { checkpointId } = pending;
    this.#current = undefined;
    this.#stoppedAfter = checkpointId;
    const where = savepoint.target.location();
    const next = savepoint.terminate === 'suspend' ? 'a final checkpoint follows, then the tasks finish' : 'the tasks finish';
    this.deps.logger.info({ checkpointId, path: where, terminate: savepoint.terminate }, `savepoint ${checkpointId} written to ${where}; the job is stopping: ${next}`);
    savepoint.completed(checkpointId);
  }

  /**
   * Answers the caller with SAVEPOINT_FAILED; a failed savepoint counts against nothing
   * tolerable. Returns the cause to fail the job over with for a failed stop, whose sources may
   * have ended already: the job then restarts from its latest checkpoint and runs on, unless
   * it is failing over or ending anyway.
   */
  failed(pending: PendingCheckpoint, savepoint: SavepointOperation, reason: CheckpointFailureReason, message: string): WeirError | undefined {
    this.#current = undefined;
    const error = new WeirError(JobManagerErrorCode.SAVEPOINT_FAILED, `savepoint ${pending.checkpointId} failed: ${reason}: ${message}`);
    savepoint.failed(error);
    if (!savepoint.terminating || reason === CheckpointFailureReason.TASK_FAILURE || reason === CheckpointFailureReason.JOB_ENDED) return undefined;
    return new WeirError(
      JobManagerErrorCode.SAVEPOINT_FAILED,
      `stop-with-savepoint failed (${error.message}); the sources may have ended already, so the job restarts from its latest checkpoint to run on`,
    );
  }
}
