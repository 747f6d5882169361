import { WeirError } from '@weir/common';
import { Boundedness, InputStatus, type ConnectorContext, type ReaderOutput, type Source, type SourceReader } from '../connector/types.ts';
import { ApiErrorCode } from '../errors.ts';

/**
 * The bounded source behind `fromElements` and `fromCollection`. Subtask i of p reads the
 * contiguous slice [floor(i*n/p), floor((i+1)*n/p)), so every process that rebuilds the job
 * agrees on who reads what.
 */
export class CollectionSource<T> implements Source<T> {
  readonly boundedness = Boundedness.BOUNDED;

  constructor(readonly items: readonly T[]) {}

  /** `restoredState`: exactly one state, the next index a predecessor's `snapshotState()` returned, or undefined to start. */
  createReader(context: ConnectorContext, restoredState?: readonly unknown[]): CollectionSourceReader<T> {
    const start = Math.floor((context.subtaskIndex * this.items.length) / context.parallelism);
    const end = Math.floor(((context.subtaskIndex + 1) * this.items.length) / context.parallelism);
    if (restoredState === undefined) return new CollectionSourceReader(this.items, start, end);
    if (restoredState.length !== 1) {
      throw new WeirError(
        ApiErrorCode.INVALID_SOURCE_STATE,
        `a collection source reader resumes from exactly one reader state, got ${restoredState.length}: changing the parallelism ` +
          'of a fromElements/fromCollection source across a restore is not supported yet; restore it at the parallelism of the checkpoint',
      );
    }
    const nextIndex = restoredState[0];
    if (typeof nextIndex !== 'number' || !Number.isSafeInteger(nextIndex) || nextIndex < start || nextIndex > end) {
      throw new WeirError(
        ApiErrorCode.INVALID_SOURCE_STATE,
        `position ${JSON.stringify(nextIndex) ?? 'undefined'} is not one of collection source reader ${context.subtaskIndex} of ${context.parallelism}, ` +
          `which covers [${start}, ${end}]`,
      );
    }
    return new CollectionSourceReader(this.items, nextIndex, end);
  }
}

export class CollectionSourceReader<T> implements SourceReader<T> {
  constructor(
    private readonly items: readonly T[],
    /** The index of the next item to emit. */
    public nextIndex: number,
    private readonly end: number,
  ) {}

  pollNext(output: ReaderOutput<T>): InputStatus {
    if (this.nextIndex >= this.end) return InputStatus.END_OF_INPUT;
    output.collect(this.items[this.nextIndex++]!);
    return InputStatus.MORE_AVAILABLE;
  }

  isAvailable(): Promise<void> {
    return Promise.resolve();
  }

  /** The index of the next item: everything before it was emitted. */
  snapshotState(): number {
    return this.nextIndex;
  }
}
