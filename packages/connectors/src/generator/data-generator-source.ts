import { WeirError } from '@weir/common';
import {
  AvailabilitySignal,
  Boundedness,
  InputStatus,
  StaticSplitEnumerator,
  type ReaderOutput,
  type SourceReaderContext,
  type SourceSplit,
  type SplitEnumeratorContext,
  type SplitSource,
  type SplitSourceReader,
  type TypeInformation,
} from '@weir/api';
import { ConnectorErrorCode } from '../errors.ts';
import { RateLimiterStrategy, type RateLimiter } from './rate-limiter.ts';

/** Makes the record of one index; must be deterministic for a restored reader to continue the same sequence. */
export type GeneratorFunction<T> = (index: number) => T;

/** The indexes next, next + step, ... below end not yet emitted. */
export interface GeneratorSplit extends SourceSplit {
  readonly next: number;
  /** Exclusive; Infinity for an unbounded source. */
  readonly end: number;
  readonly step: number;
}

/**
 * Emits `generator(index)` for every index in [0, count) (Flink's DataGeneratorSource). The
 * job's first run cuts the indexes into one split per reader: the contiguous range
 * [floor(i*count/p), floor((i+1)*count/p)), or with `count` = Infinity (unbounded) the indexes
 * i, i+p, i+2p, ... A checkpoint keeps each unfinished split's next index, so a restore at any
 * parallelism deals the remaining splits over the new readers and every index is emitted once.
 */
export class DataGeneratorSource<T> implements SplitSource<T, GeneratorSplit, GeneratorSplit[]> {
  readonly boundedness: Boundedness;
  readonly producedType: TypeInformation<T> | undefined;

  constructor(
    private readonly generator: GeneratorFunction<T>,
    private readonly count: number,
    private readonly rateLimiter: RateLimiterStrategy,
    type?: TypeInformation<T>,
  ) {
    if (typeof generator !== 'function') {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'DataGeneratorSource needs a generator function (index) => record');
    }
    if (count !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(count) && count >= 0)) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_ARGUMENT,
        `DataGeneratorSource count must be a whole number >= 0 or Number.POSITIVE_INFINITY (unbounded), got ${count}`,
      );
    }
    if (!(rateLimiter instanceof RateLimiterStrategy)) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_ARGUMENT,
        'DataGeneratorSource needs a RateLimiterStrategy, such as RateLimiterStrategy.noOp() or RateLimiterStrategy.perSecond(1000)',
      );
    }
    this.boundedness = count === Number.POSITIVE_INFINITY ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    this.producedType = type;
  }

  createEnumerator(context: SplitEnumeratorContext<GeneratorSplit>): StaticSplitEnumerator<GeneratorSplit> {
    const p = context.currentParallelism;
    const splits = Array.from({ length: p }, (_, i): GeneratorSplit => {
      if (this.count === Number.POSITIVE_INFINITY) return { splitId: `every-${p}-from-${i}`, next: i, end: Number.POSITIVE_INFINITY, step: p };
      // BigInt keeps i * count exact beyond 2^53.
      const bound = (k: number): number => Number((BigInt(k) * BigInt(this.count)) / BigInt(p));
      return { splitId: `range-${bound(i)}`, next: bound(i), end: bound(i + 1), step: 1 };
    });
    return new StaticSplitEnumerator(context, splits);
  }

  restoreEnumerator(context: SplitEnumeratorContext<GeneratorSplit>, checkpoint: GeneratorSplit[]): StaticSplitEnumerator<GeneratorSplit> {
    return new StaticSplitEnumerator(context, checkpoint.map((s) => this.#check(s)));
  }

  createReader(context: SourceReaderContext): DataGeneratorSourceReader<T> {
    return new DataGeneratorSourceReader(this.generator, this.rateLimiter.createRateLimiter(context.parallelism), (s) => this.#check(s));
  }

  #check(split: unknown): GeneratorSplit {
    const { splitId, next, end, step } = (split ?? {}) as Partial<GeneratorSplit>;
    const whole = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
    const endOk = this.count === Number.POSITIVE_INFINITY ? end === Number.POSITIVE_INFINITY : whole(end) && end <= this.count;
    if (typeof splitId !== 'string' || !whole(next) || next < 0 || !endOk || !whole(step) || step < 1) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_POSITION,
        `a DataGeneratorSource split is { splitId, next, end, step } with whole numbers, end <= ${this.count} (the count) and step >= 1, got ${JSON.stringify(split)}; ` +
          'was the checkpoint taken of a generator with another count?',
      );
    }
    return { splitId, next, end: end!, step };
  }
}

export class DataGeneratorSourceReader<T> implements SplitSourceReader<T, GeneratorSplit> {
  /** Mutable copies of the assigned splits; the reader takes one index from each in turn. */
  readonly #splits: { splitId: string; next: number; end: number; step: number }[] = [];
  /** Splits added with nothing left to generate: their outputs are released at the next poll. */
  readonly #emptyOnArrival: string[] = [];
  readonly #available = new AvailabilitySignal();
  #turn = 0;
  #noMoreSplits = false;

  constructor(
    private readonly generator: GeneratorFunction<T>,
    private readonly limiter: RateLimiter,
    private readonly check: (split: unknown) => GeneratorSplit,
  ) {}

  addSplits(splits: readonly GeneratorSplit[]): void {
    for (const split of splits) {
      const checked = this.check(split);
      if (checked.next < checked.end) this.#splits.push({ ...checked });
      else this.#emptyOnArrival.push(checked.splitId);
    }
    this.#available.signal();
  }

  notifyNoMoreSplits(): void {
    this.#noMoreSplits = true;
    this.#available.signal();
  }

  pollNext(output: ReaderOutput<T>): InputStatus {
    // The source operator made an output for every split it handed over; one with nothing to generate must not hold the watermark.
    while (this.#emptyOnArrival.length > 0) output.releaseOutputForSplit(this.#emptyOnArrival.pop()!);
    if (this.#splits.length === 0) return this.#noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    if (!this.limiter.tryAcquire()) return InputStatus.NOTHING_AVAILABLE;
    // Below the split count except after the last split's turn or a removal: a compare per record, not a division.
    const turn = this.#turn;
    const index = turn < this.#splits.length ? turn : turn % this.#splits.length;
    const split = this.#splits[index]!;
    output.createOutputForSplit(split.splitId).collect(this.generator(split.next));
    split.next += split.step;
    if (split.next >= split.end) {
      this.#splits.splice(index, 1);
      output.releaseOutputForSplit(split.splitId);
    } else {
      this.#turn = index + 1;
    }
    return InputStatus.MORE_AVAILABLE;
  }

  isAvailable(): Promise<void> {
    if (this.#splits.length === 0 && this.#emptyOnArrival.length === 0 && !this.#noMoreSplits) return this.#available.wait();
    return this.limiter.whenAvailable();
  }

  /** The unfinished splits, each at the index of its next record: everything before was emitted. */
  snapshotState(): GeneratorSplit[] {
    return this.#splits.map((s) => ({ ...s }));
  }

  close(): void {
    this.limiter.close();
  }
}
