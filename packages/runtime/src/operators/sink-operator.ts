import type { Collector, Sink, SinkWriter } from '@weir/api';
import type { ChainOperator } from './chain-operator.ts';
import type { OperatorContext } from './operator-context.ts';

/**
 * Feeds a SinkWriter. A `write` that returns a promise parks it in the task's PendingWork,
 * so the task takes no further record until it resolves; records a flatMap emits meanwhile
 * wait here, in order, and are written after it.
 */
export class SinkOperator implements ChainOperator, Collector<unknown> {
  readonly label: string;
  readonly inputs: readonly Collector<unknown>[] = [this];
  #writer: SinkWriter<unknown> | undefined;
  #busy = false;
  readonly #backlog: unknown[] = [];

  constructor(
    private readonly sink: Sink<unknown>,
    private readonly context: OperatorContext,
  ) {
    this.label = context.label;
  }

  async open(): Promise<void> {
    this.#writer = await this.context.failures.call(() => this.sink.createWriter(this.context.connector));
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
    await this.context.failures.call(() => writer.flush(true));
  }

  async close(): Promise<void> {
    const writer = this.#writer;
    if (writer === undefined) return;
    this.#writer = undefined;
    await this.context.failures.call(() => writer.close());
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
