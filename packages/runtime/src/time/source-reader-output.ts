import type { ReaderOutput, SourceOutput, TimestampAssigner, Watermark, WatermarkGenerator, WatermarkOutput, WatermarkStrategy } from '@weir/api';
import type { FailureWrapper } from '../operators/operator-failure.ts';
import type { Output } from '../operators/output.ts';
import type { ProcessingTimeService } from './processing-time-service.ts';
import type { RecordTimestamp } from './record-timestamp.ts';
import { extractTimestamp, generatorContext } from './timestamps.ts';
import { WatermarkMultiplexer } from './watermark-multiplexer.ts';
import { WatermarkToOutput } from './watermark-to-output.ts';

/** The ID the reader's own output (records not emitted through a split output) has among the split outputs. */
const READER = '\u0000reader';

/**
 * The ReaderOutput a source task gives its reader (Flink's ProgressiveTimestampsAndWatermarks
 * with its split-local outputs): every output, the reader's own and each split's, has a
 * timestamp assigner and watermark generator from the source's WatermarkStrategy; the task's
 * watermark is the minimum over the outputs that are not idle. The reader's own output counts
 * once a record or watermark went through it, a split output from `createOutputForSplit`
 * until `releaseOutputForSplit`. Generators emit periodically (`emitPeriodicWatermark`, every
 * pipeline.auto-watermark-interval) and the final watermark ends a bounded input.
 */
export class SourceReaderOutput implements ReaderOutput<unknown> {
  readonly #final: WatermarkToOutput;
  readonly #multiplexer: WatermarkMultiplexer;
  readonly #outputs = new Map<string, SplitOutput>();
  #reader: SplitOutput | undefined;
  /** The split output asked for last: readers ask for it per record, mostly for the same split. */
  #lastSplitId: string | undefined;
  #lastSplitOutput: SplitOutput | undefined;

  constructor(
    private readonly chain: Output,
    private readonly slot: RecordTimestamp,
    private readonly strategy: WatermarkStrategy<unknown>,
    private readonly processingTime: ProcessingTimeService,
    private readonly failures: FailureWrapper,
  ) {
    this.#final = new WatermarkToOutput(chain);
    this.#multiplexer = new WatermarkMultiplexer(this.#final);
  }

  /** The highest watermark emitted so far. */
  get currentWatermark(): number {
    return this.#final.currentWatermark;
  }

  collect(record: unknown, timestamp?: number): void {
    (this.#reader ??= this.#create(READER)).collect(record, timestamp);
  }

  emitWatermark(watermark: Watermark): void {
    (this.#reader ??= this.#create(READER)).emitWatermark(watermark);
  }

  markIdle(): void {
    (this.#reader ??= this.#create(READER)).markIdle();
  }

  markActive(): void {
    (this.#reader ??= this.#create(READER)).markActive();
  }

  createOutputForSplit(splitId: string): SourceOutput<unknown> {
    if (splitId === this.#lastSplitId) return this.#lastSplitOutput!;
    const output = this.#outputs.get(`split:${splitId}`) ?? this.#create(`split:${splitId}`);
    this.#lastSplitId = splitId;
    this.#lastSplitOutput = output;
    return output;
  }

  releaseOutputForSplit(splitId: string): void {
    if (splitId === this.#lastSplitId) {
      this.#lastSplitId = undefined;
      this.#lastSplitOutput = undefined;
    }
    this.#outputs.delete(`split:${splitId}`);
    this.#multiplexer.unregister(`split:${splitId}`);
  }

  /** Asks every generator for a watermark; the combined one goes down the chain if it rose. */
  emitPeriodicWatermark(): void {
    for (const output of this.#outputs.values()) output.periodicEmit();
  }

  /** The end of a bounded input (or a drain): every event-time timer and window downstream fires. */
  emitFinalWatermark(): void {
    this.#final.emit(Number.POSITIVE_INFINITY);
  }

  #create(id: string): SplitOutput {
    const context = generatorContext(this.processingTime);
    const output = new SplitOutput(
      this.chain,
      this.slot,
      this.strategy.createTimestampAssigner(context),
      this.strategy.assignsTimestamps,
      this.failures.run(() => this.strategy.createWatermarkGenerator(context)),
      this.#multiplexer.register(id),
      this.failures,
    );
    this.#outputs.set(id, output);
    return output;
  }
}

/** One output of a reader: its records get timestamps and feed its generator. */
class SplitOutput implements SourceOutput<unknown> {
  constructor(
    private readonly chain: Output,
    private readonly slot: RecordTimestamp,
    private readonly assigner: TimestampAssigner<unknown>,
    private readonly assigned: boolean,
    private readonly generator: WatermarkGenerator<unknown>,
    private readonly watermarks: WatermarkOutput,
    private readonly failures: FailureWrapper,
  ) {}

  collect(record: unknown, timestamp?: number): void {
    const eventTime = extractTimestamp(this.assigner, this.assigned, record, timestamp, this.failures);
    this.slot.value = eventTime;
    // The record goes first, as in Flink's SourceOutputWithWatermarks: a watermark that onEvent emits (a punctuated
    // generator) must not overtake the record that carried it, or the record would be late at the next window.
    this.chain.collect(record);
    if (eventTime !== undefined) {
      try {
        this.generator.onEvent(record, eventTime, this.watermarks);
      } catch (err) {
        throw this.failures.wrap(err);
      }
    }
  }

  emitWatermark(watermark: Watermark): void {
    this.watermarks.emitWatermark(watermark);
  }

  markIdle(): void {
    this.watermarks.markIdle();
  }

  markActive(): void {
    this.watermarks.markActive();
  }

  periodicEmit(): void {
    try {
      this.generator.onPeriodicEmit(this.watermarks);
    } catch (err) {
      throw this.failures.wrap(err);
    }
  }
}
