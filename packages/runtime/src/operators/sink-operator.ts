import type { Collector, Committer, Sink, SinkWriter } from '@weir/api';
import { InternalList } from '../state/operator-state-store.ts';
import type { ChainOperator } from './chain-operator.ts';
import { notifyListener } from './checkpoint-hooks.ts';
import type { OperatorContext } from './operator-context.ts';
import { PendingCommittables } from './pending-committables.ts';

/** The checkpoint ID a writer's last prepareCommit gets at end of input without checkpointing (Flink uses Long.MAX_VALUE). */
export const END_OF_INPUT_CHECKPOINT_ID = Number.MAX_SAFE_INTEGER;

/**
 * Feeds a SinkWriter. A `write` that returns a promise parks it in the task's PendingWork,
 * so the task takes no further record until it resolves; records a flatMap emits meanwhile
 * wait here, in order, and are written after it.
 *
 * Exactly-once sinks (two-phase commit): at each checkpoint the writer flushes and prepares
 * committables, kept in "$sink-committables" until that checkpoint completes, then handed to
 * the Committer. On restore the committables the checkpoint promised are committed before the
 * writer is created; without checkpointing the last ones are committed at end of input.
 */
export class SinkOperator implements ChainOperator, Collector<unknown> {
  readonly label: string;
  readonly inputs: readonly Collector<unknown>[] = [this];
  #writer: SinkWriter<unknown> | undefined;
  #committer: Committer<unknown> | undefined;
  #pending: PendingCommittables | undefined;
  #busy = false;
  readonly #backlog: unknown[] = [];

  constructor(
    private readonly sink: Sink<unknown>,
    private readonly context: OperatorContext,
  ) {
    this.label = context.label;
  }

  /** Watermarks end at the sink. */
  processWatermark(): void {}

  processWatermarkStatus(): void {}

  async open(): Promise<void> {
    const { failures, connector, lists, restored } = this.context;
    const createCommitter = this.sink.createCommitter;
    const committer = createCommitter === undefined ? undefined : await failures.call(() => createCommitter.call(this.sink, connector));
    this.#committer = committer;
    const committables = lists.internal(InternalList.SINK_COMMITTABLES);
    this.#pending = committer === undefined ? undefined : new PendingCommittables(committer, committables, failures);
    const writerStates = lists.internal(InternalList.SINK_WRITER);
    const restoredStates = restored ? [...writerStates.entries] : undefined;
    writerStates.clear();
    if (restored) await this.#pending?.commitAll();
    committables.clear();
    this.#writer = await failures.call(() => this.sink.createWriter(connector, restoredStates));
  }

  collect(record: unknown): void {
    if (this.#busy) {
      this.#backlog.push(record);
      return;
    }
    let result: void | Promise<void>;
    try {
      result = this.#writer!.write(record);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    if (result !== undefined) {
      this.#busy = true;
      this.context.work.add(this.#completeWrites(result));
    }
  }

  async finish(): Promise<void> {
    const writer = this.#writer!;
    const { failures, checkpointing } = this.context;
    await failures.call(() => writer.flush(true));
    const pending = this.#pending;
    if (checkpointing || pending === undefined || writer.prepareCommit === undefined) return;
    pending.add(END_OF_INPUT_CHECKPOINT_ID, await failures.call(() => writer.prepareCommit!(END_OF_INPUT_CHECKPOINT_ID)));
    await pending.commitUpTo(END_OF_INPUT_CHECKPOINT_ID);
  }

  async snapshotState(checkpointId: number): Promise<void> {
    const writer = this.#writer!;
    const { failures, lists } = this.context;
    await failures.call(() => writer.flush(false));
    const pending = this.#pending;
    if (pending !== undefined && writer.prepareCommit !== undefined) {
      pending.add(checkpointId, await failures.call(() => writer.prepareCommit!(checkpointId)));
    }
    if (writer.snapshotState !== undefined) {
      const state = await failures.call(() => writer.snapshotState!(checkpointId));
      lists.internal(InternalList.SINK_WRITER).update(state === undefined ? [] : [state]);
    }
  }

  async notifyCheckpointComplete(checkpointId: number): Promise<void> {
    await this.#pending?.commitUpTo(checkpointId);
    await notifyListener(this.#writer, this.context.failures, checkpointId, true);
  }

  notifyCheckpointAborted(checkpointId: number): Promise<void> {
    return notifyListener(this.#writer, this.context.failures, checkpointId, false);
  }

  async close(): Promise<void> {
    const writer = this.#writer;
    const committer = this.#committer;
    this.#writer = undefined;
    this.#committer = undefined;
    try {
      if (writer !== undefined) await this.context.failures.call(() => writer.close());
    } finally {
      if (committer?.close !== undefined) await this.context.failures.call(() => committer.close!());
    }
  }

  async #completeWrites(pending: Promise<void>): Promise<void> {
    try {
      await pending;
      while (this.#backlog.length > 0) {
        const result = this.#writer!.write(this.#backlog.shift());
        if (result !== undefined) await result;
      }
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    this.#busy = false;
  }
}
