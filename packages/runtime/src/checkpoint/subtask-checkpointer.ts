import {
  CHECKPOINT_OPTIONS,
  CheckpointFailureReason,
  declineSentence,
  describeError,
  type CheckpointAck,
  type CheckpointDecline,
  type CheckpointMetrics,
  type CheckpointOptions,
  type Clock,
  type Logger,
} from '@weir/common';
import { barrierEvent, cancelCheckpointEvent, unalignedBarrierEvent } from '../network/channel-events.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import type { PendingWork } from '../operators/pending-work.ts';
import type { RecordWriter } from '../output/record-writers.ts';
import type { OperatorStates } from '../task/chain-builder.ts';
import type { CheckpointActions } from './barrier/barrier-handler.ts';
import { CheckpointDeclinedError } from './checkpoint-declined.ts';
import { notifyStatesCheckpointAborted, notifyStatesCheckpointComplete } from '../state/state-lifecycle.ts';
import { captureTaskState, persistTaskState, type CapturedOperatorState, type PersistedTaskState } from './snapshot/persist-state.ts';
import type { ChannelBuffers, PendingInputState } from './channel-state/pending-input-state.ts';
import { writeChannelState } from './channel-state/channel-state-writer.ts';
import type { TaskCheckpointing } from './types.ts';

/** What the asynchronous part produced. */
interface Persisted extends PersistedTaskState {
  readonly asyncMs: number;
  readonly persistedBytes: number;
}

/** Sources send unaligned barriers from the start when unaligned checkpoints are on without an aligned phase; savepoints are always aligned. */
export function startsUnaligned(settings: TaskCheckpointing, options: CheckpointOptions): boolean {
  return settings.mode === 'EXACTLY_ONCE' && settings.unaligned && settings.alignedCheckpointTimeoutMs === 0 && options.type === 'checkpoint';
}

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
  /** A checkpoint's synchronous part ran: the task's end-of-input phase may be waiting for one. */
  readonly onSnapshotTaken: (checkpointId: number) => void;
  /** A checkpoint completed and every operator was told (sinks committed it). */
  readonly onCompleted: (checkpointId: number) => void;
}

/**
 * The task's side of checkpoints (Flink's SubtaskCheckpointCoordinator). A checkpoint is a
 * step of the task's PendingWork, so no record is taken while it runs: the synchronous part
 * (operators' snapshotState, then capturing copy-on-write views of their state), the barrier
 * downstream, then the asynchronous part (serialize, write) while records flow again, and the
 * acknowledgement. With asyncSnapshots off, the state is written before the barrier goes.
 * Notifications are steps too, so they run in order with checkpoints, between two records.
 *
 * An unaligned checkpoint sends its barrier ahead of the queued output (always before
 * writing), keeps the overtaken output buffers, and waits in its asynchronous part for the
 * barrier handler to complete the input channel state; both go into one channel state handle
 * on the chain's head operator.
 */
/** How many checkpoint IDs back an abort notification is remembered. */
const ABORTS_REMEMBERED = 16;

export class SubtaskCheckpointer implements CheckpointActions {
  readonly #options: SubtaskCheckpointerOptions;
  #closed = false;
  /** Asynchronous parts writing state now; closing waits for them. */
  readonly #persisting = new Set<Promise<Persisted | undefined>>();
  /**
   * Checkpoints the JobManager said it aborted, marked as the notification arrives (before its
   * step runs): a snapshot still being written for one may fail on the files the JobManager
   * deletes, and that is no failure to report. The last few IDs are enough.
   */
  readonly #abortedByJobManager = new Set<number>();

  constructor(options: SubtaskCheckpointerOptions) {
    this.#options = options;
  }

  get settings(): TaskCheckpointing {
    return this.#options.settings;
  }

  /**
   * The task ended: declines still in flight are dropped. Resolves once the asynchronous parts
   * in flight have stopped writing, so the task reports its end only after them. Their
   * acknowledgements still go out: for a checkpoint that no longer pends (the job failed over),
   * the JobManager deletes what they wrote, `shared/` uploads included, which only the task
   * can name.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled(this.#persisting);
  }

  triggerCheckpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions = CHECKPOINT_OPTIONS): void {
    this.#options.work.addStep(() => this.#checkpoint(checkpointId, timestamp, alignmentMs, options));
  }

  triggerUnalignedCheckpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions, inputs: PendingInputState): void {
    this.#options.work.addStep(() => this.#unalignedCheckpoint(checkpointId, timestamp, alignmentMs, options, inputs));
  }

  abortCheckpoint(checkpointId: number, reason: CheckpointFailureReason, message: string): void {
    this.#broadcastCancel(checkpointId);
    this.#decline(checkpointId, reason, message);
  }

  notifyComplete(checkpointId: number): void {
    this.#options.work.addStep(async () => {
      notifyStatesCheckpointComplete(this.#options.states, checkpointId);
      for (const operator of this.#options.operators) await operator.notifyCheckpointComplete(checkpointId);
      this.#options.onCompleted(checkpointId);
      this.#options.logger.debug({ checkpointId }, 'checkpoint complete notified');
    });
  }

  notifyAborted(checkpointId: number): void {
    this.#abortedByJobManager.add(checkpointId);
    for (const id of this.#abortedByJobManager) if (id <= checkpointId - ABORTS_REMEMBERED) this.#abortedByJobManager.delete(id);
    this.#options.work.addStep(async () => {
      notifyStatesCheckpointAborted(this.#options.states, checkpointId);
      for (const operator of this.#options.operators) await operator.notifyCheckpointAborted(checkpointId);
      this.#options.logger.debug({ checkpointId }, 'checkpoint abort notified');
    });
  }

  async #checkpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions): Promise<void> {
    const { clock, settings } = this.#options;
    const syncStart = clock.now();
    const captured = await this.#snapshot(checkpointId, timestamp, options);
    if (captured === undefined) return;
    const base = { syncMs: clock.now() - syncStart, alignmentMs, unaligned: false };
    if (settings.asyncSnapshots) {
      this.#broadcastBarrier(checkpointId, timestamp, options);
      void this.#persist(checkpointId, captured, options, []).then((persisted) => {
        if (persisted !== undefined) this.#acknowledge(checkpointId, persisted, base);
      });
      return;
    }
    const persisted = await this.#persist(checkpointId, captured, options, []);
    if (persisted === undefined) {
      this.#broadcastCancel(checkpointId);
      return;
    }
    this.#broadcastBarrier(checkpointId, timestamp, options);
    this.#acknowledge(checkpointId, persisted, base);
  }

  async #unalignedCheckpoint(checkpointId: number, timestamp: number, alignmentMs: number, options: CheckpointOptions, inputs: PendingInputState): Promise<void> {
    const { clock, writers } = this.#options;
    const syncStart = clock.now();
    const captured = await this.#snapshot(checkpointId, timestamp, options);
    if (captured === undefined) {
      inputs.abort();
      return;
    }
    const barrier = unalignedBarrierEvent(checkpointId, timestamp, options);
    const outputs: ChannelBuffers[] = [];
    for (const writer of writers) {
      const { consumerVertexId: vertexId, consumerInput: input } = writer.partition.id;
      writer.broadcastPriorityEvent(barrier).forEach((buffers, subtask) => outputs.push({ direction: 'output', vertexId, subtask, input, buffers }));
    }
    const base = { syncMs: clock.now() - syncStart, alignmentMs, unaligned: true };
    void (async () => {
      const received = await inputs.result;
      // Aborted while collecting: the barrier handler declined it already.
      if (received === undefined) return;
      const persisted = await this.#persist(checkpointId, captured, options, [...received, ...outputs]);
      if (persisted !== undefined) this.#acknowledge(checkpointId, persisted, base);
    })();
  }

  /** The synchronous part; declines and returns undefined on failure. */
  async #snapshot(checkpointId: number, timestamp: number, options: CheckpointOptions): Promise<CapturedOperatorState[] | undefined> {
    const { states, operators } = this.#options;
    this.#options.onSnapshotTaken(checkpointId);
    try {
      for (const operator of operators) await operator.snapshotState(checkpointId, timestamp);
      return await captureTaskState(states, checkpointId, options);
    } catch (err) {
      this.abortCheckpoint(checkpointId, CheckpointFailureReason.SNAPSHOT_FAILED, `the snapshot failed: ${describeError(err)}`);
      return undefined;
    }
  }

  /** The asynchronous part; declines and resolves undefined on failure. */
  #persist(checkpointId: number, captured: readonly CapturedOperatorState[], options: CheckpointOptions, channels: readonly ChannelBuffers[]): Promise<Persisted | undefined> {
    const persisting = this.#write(checkpointId, captured, options, channels);
    this.#persisting.add(persisting);
    void persisting.finally(() => this.#persisting.delete(persisting));
    return persisting;
  }

  async #write(checkpointId: number, captured: readonly CapturedOperatorState[], options: CheckpointOptions, channels: readonly ChannelBuffers[]): Promise<Persisted | undefined> {
    const { clock, settings, subtaskIndex, states, label } = this.#options;
    const start = clock.now();
    try {
      const persisted = await persistTaskState(settings, checkpointId, subtaskIndex, captured, options);
      const head = states[0]!.operatorId;
      const channel = await writeChannelState(settings, checkpointId, `${head}-${subtaskIndex}-channel`, channels, `channel state of ${label}`);
      if (channel.handle === undefined) return { ...persisted, asyncMs: clock.now() - start, persistedBytes: 0 };
      const operators = { ...persisted.state.operators, [head]: { ...persisted.state.operators[head], channel: channel.handle } };
      return {
        state: { operators },
        stateBytes: persisted.stateBytes + channel.handle.handle.size,
        checkpointedBytes: persisted.checkpointedBytes + channel.handle.handle.size,
        asyncMs: clock.now() - start,
        persistedBytes: channel.bytes,
      };
    } catch (err) {
      if (err instanceof CheckpointDeclinedError) this.#decline(checkpointId, err.reason, err.message);
      else this.#decline(checkpointId, CheckpointFailureReason.DECLINED, `writing the snapshot failed: ${describeError(err)}`);
      return undefined;
    }
  }

  #acknowledge(checkpointId: number, persisted: Persisted, base: Pick<CheckpointMetrics, 'syncMs' | 'alignmentMs' | 'unaligned'>): void {
    const metrics: CheckpointMetrics = { ...base, asyncMs: persisted.asyncMs, stateBytes: persisted.stateBytes, checkpointedBytes: persisted.checkpointedBytes, persistedBytes: persisted.persistedBytes };
    this.#options.logger.info({ checkpointId, ...metrics }, 'checkpoint acknowledged');
    try {
      this.#options.onAck({ checkpointId, state: persisted.state, metrics });
    } catch (err) {
      this.#options.logger.error({ err, checkpointId }, 'onCheckpointAck threw');
    }
  }

  /** `message` says why; the JobManager names the task (declineSentence), so it is not prefixed here. */
  #decline(checkpointId: number, reason: CheckpointFailureReason, message: string): void {
    if (this.#closed) return;
    if (this.#abortedByJobManager.has(checkpointId)) {
      this.#options.logger.debug({ checkpointId, reason, message }, 'the checkpoint was aborted by the JobManager while this task took its snapshot: nothing to report');
      return;
    }
    this.#options.logger.warn({ checkpointId, reason }, declineSentence(this.#options.label, { checkpointId, message }));
    try {
      this.#options.onDecline({ checkpointId, reason, message });
    } catch (err) {
      this.#options.logger.error({ err, checkpointId }, 'onCheckpointDecline threw');
    }
  }

  #broadcastBarrier(checkpointId: number, timestamp: number, options: CheckpointOptions): void {
    const barrier = barrierEvent(checkpointId, timestamp, options);
    for (const writer of this.#options.writers) writer.broadcastEvent(barrier);
  }

  #broadcastCancel(checkpointId: number): void {
    const marker = cancelCheckpointEvent(checkpointId);
    for (const writer of this.#options.writers) writer.broadcastEvent(marker);
  }
}
