import type { Collector, Source, SourceReader } from '@weir/api';
import type { ChainOperator } from './chain-operator.ts';
import type { OperatorContext } from './operator-context.ts';

/** Owns the SourceReader of a source task; the task's SourceInput drives it. */
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
    const reader = await this.context.failures.call(() => this.source.createReader(this.context.connector));
    this.#reader = reader;
    if (reader.start !== undefined) await this.context.failures.call(() => reader.start!());
  }

  async finish(): Promise<void> {}

  async close(): Promise<void> {
    const reader = this.#reader;
    if (reader === undefined) return;
    this.#reader = undefined;
    if (reader.close !== undefined) await this.context.failures.call(() => reader.close!());
  }
}
