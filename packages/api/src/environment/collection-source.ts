import { Boundedness, InputStatus, type ConnectorContext, type ReaderOutput, type Source, type SourceReader } from '../connector/types.ts';

/**
 * The bounded source behind `fromElements` and `fromCollection`. Subtask i of p reads the
 * contiguous slice [floor(i*n/p), floor((i+1)*n/p)), so every process that rebuilds the job
 * agrees on who reads what.
 */
export class CollectionSource<T> implements Source<T> {
  readonly boundedness = Boundedness.BOUNDED;

  constructor(readonly items: readonly T[]) {}

  createReader(context: ConnectorContext): CollectionSourceReader<T> {
    return this.restoreReader(context, Math.floor((context.subtaskIndex * this.items.length) / context.parallelism));
  }

  /** A reader that continues at `nextIndex`, a position `snapshotPosition()` returned. */
  restoreReader(context: ConnectorContext, nextIndex: number): CollectionSourceReader<T> {
    const end = Math.floor(((context.subtaskIndex + 1) * this.items.length) / context.parallelism);
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

  snapshotPosition(): number {
    return this.nextIndex;
  }
}
