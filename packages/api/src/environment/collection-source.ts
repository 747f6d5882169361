import { WeirError } from '@weir/common';
import { AvailabilitySignal, StaticSplitEnumerator } from '../connector/static-split-enumerator.ts';
import type { SourceReaderContext, SourceSplit, SplitEnumeratorContext, SplitSource, SplitSourceReader } from '../connector/splits.ts';
import { Boundedness, InputStatus, type ReaderOutput } from '../connector/types.ts';
import { ApiErrorCode } from '../errors.ts';

/** The items [next, end) of the collection, not yet emitted. */
export interface CollectionSplit extends SourceSplit {
  readonly next: number;
  readonly end: number;
}

/**
 * The bounded source behind `fromElements` and `fromCollection`: one split per subtask of
 * the job's first run, the contiguous slice [floor(i*n/p), floor((i+1)*n/p)), so every
 * process that rebuilds the job agrees on the splits. Restored at another parallelism, the
 * unfinished slices are dealt over the new readers.
 */
export class CollectionSource<T> implements SplitSource<T, CollectionSplit, CollectionSplit[]> {
  readonly boundedness = Boundedness.BOUNDED;

  constructor(readonly items: readonly T[]) {}

  /** The enumerator that deals the collection's one split. */
  createEnumerator(context: SplitEnumeratorContext<CollectionSplit>): StaticSplitEnumerator<CollectionSplit> {
    const n = this.items.length;
    const p = context.currentParallelism;
    const splits = Array.from({ length: p }, (_, i) => {
      const next = Math.floor((i * n) / p);
      return { splitId: `${next}`, next, end: Math.floor(((i + 1) * n) / p) };
    });
    return new StaticSplitEnumerator(context, splits);
  }

  /** The enumerator restored from a checkpoint. */
  restoreEnumerator(context: SplitEnumeratorContext<CollectionSplit>, checkpoint: CollectionSplit[]): StaticSplitEnumerator<CollectionSplit> {
    return new StaticSplitEnumerator(context, checkpoint.map((s) => this.#check(s)));
  }

  /** A reader of this subtask's share of the collection, from its restored position. */
  createReader(_context: SourceReaderContext): CollectionSourceReader<T> {
    return new CollectionSourceReader(this.items, (s) => this.#check(s));
  }

  #check(split: unknown): CollectionSplit {
    const { splitId, next, end } = (split ?? {}) as Partial<CollectionSplit>;
    const whole = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
    if (typeof splitId !== 'string' || !whole(next) || !whole(end) || next < 0 || next > end || end > this.items.length) {
      throw new WeirError(
        ApiErrorCode.INVALID_SOURCE_STATE,
        `a collection source split is { splitId, next, end } with 0 <= next <= end <= ${this.items.length} (the number of items), got ${JSON.stringify(split)}`,
      );
    }
    return { splitId, next, end };
  }
}

/** Reads one split of a collection source: its elements in order, one per `pollNext`. */
export class CollectionSourceReader<T> implements SplitSourceReader<T, CollectionSplit> {
  readonly #splits: { splitId: string; next: number; end: number }[] = [];
  readonly #available = new AvailabilitySignal();
  #noMoreSplits = false;

  constructor(
    private readonly items: readonly T[],
    private readonly check: (split: unknown) => CollectionSplit,
  ) {}

  addSplits(splits: readonly CollectionSplit[]): void {
    for (const split of splits) this.#splits.push({ ...this.check(split) });
    this.#available.signal();
  }

  notifyNoMoreSplits(): void {
    this.#noMoreSplits = true;
    this.#available.signal();
  }

  pollNext(output: ReaderOutput<T>): InputStatus {
    const split = this.#splits[0];
    if (split === undefined) return this.#noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    if (split.next < split.end) output.createOutputForSplit(split.splitId).collect(this.items[split.next++]!);
    if (split.next >= split.end) {
      this.#splits.shift();
      output.releaseOutputForSplit(split.splitId);
    }
    return InputStatus.MORE_AVAILABLE;
  }

  /** Always resolved: the records are in memory. */
  isAvailable(): Promise<void> {
    return this.#splits.length > 0 || this.#noMoreSplits ? Promise.resolve() : this.#available.wait();
  }

  /** The unfinished slices: everything before `next` was emitted. */
  snapshotState(): CollectionSplit[] {
    return this.#splits.map((s) => ({ ...s }));
  }
}
