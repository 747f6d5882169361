import type { InputStatus, SourceReader } from '@weir/api';
import type { SourceOperator } from '../operators/source-operator.ts';
import type { FailureWrapper } from '../operators/operator-failure.ts';
import type { TaskInput } from './task-input.ts';

/** A source task's input: one `pollNext` per loop iteration, so the task can act between any two records. */
export class SourceInput implements TaskInput {
  readonly #reader: SourceReader<unknown>;
  readonly #failures: FailureWrapper;
  #endRequested = false;

  constructor(readonly operator: SourceOperator) {
    this.#reader = operator.reader;
    this.#failures = operator.context.failures;
  }

  /** The watermark the reader's output emitted last. */
  get currentWatermark(): number {
    return this.operator.output.currentWatermark;
  }

  /** Stop-with-savepoint: the reader emits nothing more, the task ends its input as if the source were bounded and done. */
  endInput(): void {
    this.#endRequested = true;
  }

  emitNext(): InputStatus {
    if (this.#endRequested) return 'end-of-input';
    try {
      return this.#reader.pollNext(this.operator.output);
    } catch (err) {
      throw this.#failures.wrap(err);
    }
  }

  whenAvailable(): Promise<void> {
    if (this.#endRequested) return Promise.resolve();
    return this.#failures.call(() => this.#reader.isAvailable());
  }
}
