import { CHECKPOINT_OPTIONS, CheckpointFailureReason, describeError, type CheckpointOptions, type Clock, type Logger } from '@weir/common';
import { barrierEvent, cancelCheckpointEvent } from '../network/channel-events.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import type { PendingWork } from '../operators/pending-work.ts';
import type { RecordWriter } from '../output/record-writers.ts';
import type { OperatorStates } from '../task/chain-builder.ts';
import type { CheckpointActions } from './barrier/barrier-handler.ts';
import { CheckpointDeclinedError } from './checkpoint-declined.ts';
import { notifyStatesCheckpointAborted, notifyStatesCheckpointComplete } from '../state/state-lifecycle.ts';
import { captureTaskState, persistTaskState, type CapturedOperatorState, type PersistedTaskState } from './snapshot/persist-state.ts';
import type { CheckpointAck, CheckpointDecline, TaskCheckpointing } from './types.ts';

export interface SubtaskCheckpointerOptions {
  readonly settings: TaskCheckpointing;
  readonly subtaskIndex: number;
  /** The task's label, "<vertex name> (<subtask+1>/<parallelism>)". */
  readonly label: string;
  readonly operators: readonly ChainOperator[];
  readonly states: readonly OperatorStates[];
  readonly writers: readonly RecordWriter[];
  readonly work: PendingWork;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onAck: (ack: CheckpointAck) => void;
  readonly onDecline: (decline: CheckpointDecline) => void;
}

/**
 * The task's side of checkpoints (Flink's SubtaskCheckpointCoordinator). A checkpoint is a
 * step of the task's PendingWork, so no record is taken while it runs: the synchronous part
 * (operators' snapshotState, then capturing copy-on-write views of their state), the barrier
 * downstream, then the asynchronous part (serialize, write) while records flow again, and the
 * acknowledgement. With asyncSnapshots off, the state is written before the barrier goes.
 * Notifications are steps too, so they run in order with checkpoints, between two records.
 */
export class SubtaskCheckpointer implements CheckpointActions {
  readonly #options: SubtaskCheckpointerOptions;
  #dataEnded = false;
  /** The first checkpoint this task took after its end of data: once it (or a later one) completes, the task may finish. */
  #firstAfterEnd: number | undefined;
  #finalCheckpointCompleted = false;
  #closed = false;

  constructor(options: SubtaskCheckpointerOptions) {
    this.#options = options;
  }

  /** A checkpoint taken after end of data completed: the task may emit its end of partition. */
  get finalCheckpointCompleted(): boolean {
    return this.#finalCheckpointCompleted;
  }

  /** The operators finished and end of data went downstream; checkpoints from now on are final-checkpoint candidates. */
  dataEnded(): void {
    this.#dataEnded = true;
  }

  /** The task ended: acknowledgements and declines still in flight are dropped. */
  close(): void {
    this.#closed = true;
  }

  triggerCheckpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions = CHECKPOINT_OPTIONS): void {
    this.#options.work.addStep(() => this.#checkpoint(checkpointId, timestamp, alignmentMs, options));
  }

  abortCheckpoint(checkpointId: number, reason: CheckpointFailureReason, message: string): void {
    this.#broadcastCancel(checkpointId);
    this.#decline(checkpointId, reason, message);
  }

  notifyComplete(checkpointId: number): void {
    this.#options.work.addStep(async () => {
      notifyStatesCheckpointComplete(this.#options.states, checkpointId);
      for (const operator of this.#options.operators) await operator.notifyCheckpointComplete(checkpointId);
      if (this.#firstAfterEnd !== undefined && checkpointId >= this.#firstAfterEnd) this.#finalCheckpointCompleted = true;
      this.#options.logger.debug({ checkpointId }, 'checkpoint complete notified');
    });
  }

  notifyAborted(checkpointId: number): void {
    this.#options.work.addStep(async () => {
      notifyStatesCheckpointAborted(this.#options.states, checkpointId);
      for (const operator of this.#options.operators) await operator.notifyCheckpointAborted(checkpointId);
      this.#options.logger.debug({ checkpointId }, 'checkpoint abort notified');
    });
  }

  async #checkpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions): Promise<void> {
    const { clock, states, operators, settings } = this.#options;
    if (this.#dataEnded) this.#firstAfterEnd ??= checkpointId;
    const syncStart = clock.now();
    let captured: CapturedOperatorState[];
    try {
      for (const operator of operators) await operator.snapshotState(checkpointId, timestamp);
      captured = await captureTaskState(states, checkpointId, options);
    } catch (err) {
      this.abortCheckpoint(checkpointId, CheckpointFailureReason.SNAPSHOT_FAILED, `the snapshot failed: ${describeError(err)}`);
      return;
    }
    const syncMs = clock.now() - syncStart;
    if (settings.asyncSnapshots) {
      this.#broadcastBarrier(checkpointId, timestamp);
      void this.#persist(checkpointId, captured, options).then((persisted) => {
        if (persisted !== undefined) this.#acknowledge(checkpointId, persisted, syncMs, alignmentMs);
      });
      return;
    }
    const persisted = await this.#persist(checkpointId, captured, options);
    if (persisted === undefined) {
      this.#broadcastCancel(checkpointId);
      return;
    }
    this.#broadcastBarrier(checkpointId, timestamp);
    this.#acknowledge(checkpointId, persisted, syncMs, alignmentMs);
  }

  /** The asynchronous part; declines and resolves undefined on failure. */
  async #persist(checkpointId: number, captured: readonly CapturedOperatorState[], options: CheckpointOptions): Promise<(PersistedTaskState & { asyncMs: number }) | undefined> {
    const { clock, settings, subtaskIndex } = this.#options;
    const start = clock.now();
    try {
      const persisted = await persistTaskState(settings, checkpointId, subtaskIndex, captured, options);
      return { ...persisted, asyncMs: clock.now() - start };
    } catch (err) {
      if (err instanceof CheckpointDeclinedError) this.#decline(checkpointId, err.reason, err.message);
      else this.#decline(checkpointId, CheckpointFailureReason.DECLINED, `writing the snapshot failed: ${describeError(err)}`);
      return undefined;
    }
  }

  #acknowledge(checkpointId: number, persisted: PersistedTaskState & { asyncMs: number }, syncMs: number, alignmentMs: number): void {
    if (this.#closed) return;
    const metrics = { syncMs, asyncMs: persisted.asyncMs, alignmentMs, stateBytes: persisted.stateBytes, unaligned: false, persistedBytes: 0 };
    this.#options.logger.info({ checkpointId, ...metrics }, 'checkpoint acknowledged');
    try {
      this.#options.onAck({ checkpointId, state: persisted.state, metrics });
    } catch (err) {
      this.#options.logger.error({ err, checkpointId }, 'onCheckpointAck threw');
    }
  }

  #decline(checkpointId: number, reason: CheckpointFailureReason, message: string): void {
    if (this.#closed) return;
    const full = `${this.#options.label} declined checkpoint ${checkpointId}: ${message}`;
    this.#options.logger.warn({ checkpointId, reason }, full);
    try {
      this.#options.onDecline({ checkpointId, reason, message: full });
    } catch (err) {
      this.#options.logger.error({ err, checkpointId }, 'onCheckpointDecline threw');
    }
  }

  #broadcastBarrier(checkpointId: number, timestamp: number): void {
    const barrier = barrierEvent(checkpointId, timestamp);
    for (const writer of this.#options.writers) writer.broadcastEvent(barrier);
  }

  #broadcastCancel(checkpointId: number): void {
    const marker = cancelCheckpointEvent(checkpointId);
    for (const writer of this.#options.writers) writer.broadcastEvent(marker);
  }
}
