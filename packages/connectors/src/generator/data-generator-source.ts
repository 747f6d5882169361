import { WeirError } from '@weir/common';
import {
  Boundedness,
  InputStatus,
  type ConnectorContext,
  type ReaderOutput,
  type Source,
  type SourceReader,
  type TypeInformation,
} from '@weir/api';
import { ConnectorErrorCode } from '../errors.ts';
import { FRESH_START, singleReaderState } from '../restored-state.ts';
import { RateLimiterStrategy, type RateLimiter } from './rate-limiter.ts';

/** Makes the record of one index; must be deterministic for a restored reader to continue the same sequence. */
export type GeneratorFunction<T> = (index: number) => T;

/**
 * Emits `generator(index)` for every index in [0, count) (Flink's DataGeneratorSource).
 * Reader i of p takes the contiguous range [floor(i*count/p), floor((i+1)*count/p)); with
 * `count` = Infinity the source is unbounded and reader i takes i, i+p, i+2p, ...
 */
export class DataGeneratorSource<T> implements Source<T> {
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

  /** `restoredState`: exactly one state, the next index a predecessor's `snapshotState()` returned, or undefined to start. */
  createReader(context: ConnectorContext, restoredState?: readonly unknown[]): DataGeneratorSourceReader<T> {
    const { start, end, step } = this.#range(context);
    const state = singleReaderState(restoredState, 'DataGeneratorSource');
    const nextIndex = state === FRESH_START ? start : state;
    const belongs =
      typeof nextIndex === 'number' &&
      Number.isSafeInteger(nextIndex) &&
      nextIndex >= start &&
      (step === 1 ? nextIndex <= end : (nextIndex - start) % step === 0);
    if (!belongs) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_POSITION,
        `position ${typeof nextIndex === 'number' ? nextIndex : JSON.stringify(nextIndex) ?? 'undefined'} is not one of generator reader ${context.subtaskIndex} of ${context.parallelism}, which covers ` +
          (step === 1 ? `[${start}, ${end}]` : `${start}, ${start + step}, ...`),
      );
    }
    return new DataGeneratorSourceReader(this.generator, nextIndex, step, end, this.rateLimiter.createRateLimiter(context.parallelism));
  }

  #range({ subtaskIndex, parallelism }: ConnectorContext): { start: number; end: number; step: number } {
    if (this.count === Number.POSITIVE_INFINITY) return { start: subtaskIndex, end: Number.POSITIVE_INFINITY, step: parallelism };
    // BigInt keeps i * count exact beyond 2^53.
    const bound = (i: number): number => Number((BigInt(i) * BigInt(this.count)) / BigInt(parallelism));
    return { start: bound(subtaskIndex), end: bound(subtaskIndex + 1), step: 1 };
  }
}

export class DataGeneratorSourceReader<T> implements SourceReader<T> {
  constructor(
    private readonly generator: GeneratorFunction<T>,
    /** The index of the next record; what a checkpoint of this reader records. */
    public nextIndex: number,
    private readonly step: number,
    private readonly end: number,
    private readonly limiter: RateLimiter,
  ) {}

  pollNext(output: ReaderOutput<T>): InputStatus {
    if (this.nextIndex >= this.end) return InputStatus.END_OF_INPUT;
    if (!this.limiter.tryAcquire()) return InputStatus.NOTHING_AVAILABLE;
    output.collect(this.generator(this.nextIndex));
    this.nextIndex += this.step;
    return InputStatus.MORE_AVAILABLE;
  }

  isAvailable(): Promise<void> {
    return this.limiter.whenAvailable();
  }

  /** The index of the next record: everything before it was emitted. */
  snapshotState(): number {
    return this.nextIndex;
  }

  close(): void {
    this.limiter.close();
  }
}
