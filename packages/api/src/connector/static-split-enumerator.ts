import type { SourceSplit, SplitEnumerator, SplitEnumeratorContext } from './splits.ts';

/**
 * The enumerator of a fixed set of splits known up front (generator ranges, collection
 * slices, the files of a bounded FileSource): split k of the list goes to reader
 * k mod parallelism when that reader registers, then the reader is told no more splits come.
 * Its checkpoint is the splits not assigned yet; restored at another parallelism they are
 * dealt the same way over the new readers.
 */
export class StaticSplitEnumerator<S extends SourceSplit> implements SplitEnumerator<S, S[]> {
  /** Unassigned splits by the reader they go to. */
  readonly #byReader = new Map<number, S[]>();

  constructor(
    private readonly context: SplitEnumeratorContext<S>,
    splits: readonly S[],
  ) {
    splits.forEach((split, k) => this.#add(split, k % context.currentParallelism));
  }

  /** Nothing to start: the splits were all known when the enumerator was made. */
  start(): void {}

  handleSplitRequest(): void {}

  addReader(subtask: number): void {
    const splits = this.#byReader.get(subtask) ?? [];
    this.#byReader.delete(subtask);
    if (splits.length > 0) this.context.assignSplits(new Map([[subtask, splits]]));
    this.context.signalNoMoreSplits(subtask);
  }

  /** Splits come back to the reader they were taken from, when it registers again. */
  addSplitsBack(splits: readonly S[], subtask: number): void {
    for (const split of splits) this.#add(split, subtask);
  }

  snapshotState(): S[] {
    return [...this.#byReader.values()].flat();
  }

  #add(split: S, subtask: number): void {
    const list = this.#byReader.get(subtask);
    if (list === undefined) this.#byReader.set(subtask, [split]);
    else list.push(split);
  }
}

/**
 * What a reader's `isAvailable()` returns while it waits: resolved by `signal()` (splits
 * added, no more splits, data arrived), so the task polls again.
 */
export class AvailabilitySignal {
  #pending: { promise: Promise<void>; resolve: () => void } | undefined;

  /** Resolves at the next `signal()`. */
  wait(): Promise<void> {
    if (this.#pending === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#pending = { promise, resolve };
    }
    return this.#pending.promise;
  }

  /** Wakes whoever waits in `wait()`. */
  signal(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.resolve();
  }
}
