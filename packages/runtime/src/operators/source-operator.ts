import type { Collector, Source, SourceReader } from '@weir/api';
import { InternalList } from '../state/operator-state-store.ts';
import type { ChainOperator } from './chain-operator.ts';
import { notifyListener } from './checkpoint-hooks.ts';
import type { OperatorContext } from './operator-context.ts';

/**
 * Owns the SourceReader of a source task; the task's SourceInput drives it. The reader's
 * position (`snapshotState`) is the operator list "$source-reader"; a restored position goes
 * to `createReader`.
 */
export class SourceOperator implements ChainOperator {
  readonly label: string;
  readonly inputs: readonly Collector<unknown>[] = [];
  #reader: SourceReader<unknown> | undefined;

  constructor(
    private readonly source: Source<unknown>,
    /** Where the reader's records go: the rest of the chain. */
    readonly output: Collector<unknown>,
    readonly context: OperatorContext,
  ) {
    this.label = context.label;
  }

  get reader(): SourceReader<unknown> {
    return this.#reader!;
  }

  async open(): Promise<void> {
    const positions = this.context.lists.internal(InternalList.SOURCE_READER);
    const restored = positions.entries.length === 0 ? undefined : [...positions.entries];
    // Each checkpoint writes the reader's position afresh; a reader without snapshotState leaves none.
    positions.clear();
    const reader = await this.context.failures.call(() => this.source.createReader(this.context.connector, restored));
    this.#reader = reader;
    if (reader.start !== undefined) await this.context.failures.call(() => reader.start!());
  }

  async finish(): Promise<void> {}

  async snapshotState(checkpointId: number): Promise<void> {
    const reader = this.#reader!;
    if (reader.snapshotState === undefined) return;
    let position: unknown;
    try {
      position = reader.snapshotState(checkpointId);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    this.context.lists.internal(InternalList.SOURCE_READER).update(position === undefined ? [] : [position]);
  }

  notifyCheckpointComplete(checkpointId: number): Promise<void> {
    return notifyListener(this.#reader, this.context.failures, checkpointId, true);
  }

  notifyCheckpointAborted(checkpointId: number): Promise<void> {
    return notifyListener(this.#reader, this.context.failures, checkpointId, false);
  }

  async close(): Promise<void> {
    const reader = this.#reader;
    if (reader === undefined) return;
    this.#reader = undefined;
    if (reader.close !== undefined) await this.context.failures.call(() => reader.close!());
  }
}
