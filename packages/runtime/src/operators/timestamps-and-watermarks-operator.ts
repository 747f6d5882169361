import type { TimestampAssigner, WatermarkGenerator, WatermarkStrategy } from '@weir/api';
import { extractTimestamp, generatorContext } from '../time/timestamps.ts';
import { WatermarkToOutput } from '../time/watermark-to-output.ts';
import { SingleInputOperator } from './function-operator.ts';
import type { OperatorContext } from './operator-context.ts';
import type { Output } from './output.ts';

/**
 * `assignTimestampsAndWatermarks(strategy)` (Flink's TimestampsAndWatermarksOperator): gives
 * each record its timestamp, feeds the generator, emits its watermarks periodically. Upstream
 * watermarks are dropped, except the final one at the end of input; upstream idleness too:
 * this operator decides idleness itself (withIdleness).
 */
export class TimestampsAndWatermarksOperator extends SingleInputOperator<WatermarkStrategy<unknown>> {
  readonly #watermarks: WatermarkToOutput;
  #assigner: TimestampAssigner<unknown> | undefined;
  #generator: WatermarkGenerator<unknown> | undefined;
  #cancelPeriodic: (() => void) | undefined;

  constructor(strategy: WatermarkStrategy<unknown>, out: Output, context: OperatorContext) {
    super(strategy, out, context, undefined);
    this.#watermarks = new WatermarkToOutput(out);
  }

  override async open(): Promise<void> {
    const context = generatorContext(this.context.processingTime);
    this.#assigner = this.fn.createTimestampAssigner(context);
    this.#generator = await this.context.failures.call(() => this.fn.createWatermarkGenerator(context));
    const interval = this.context.autoWatermarkIntervalMs;
    if (interval > 0) this.#schedule(interval);
  }

  collect(record: unknown): void {
    const slot = this.context.timestamp;
    const previous = slot.value;
    const timestamp = extractTimestamp(this.#assigner!, this.fn.assignsTimestamps, record, previous, this.context.failures);
    slot.value = timestamp;
    if (timestamp !== undefined) {
      try {
        this.#generator!.onEvent(record, timestamp, this.#watermarks);
      } catch (err) {
        throw this.context.failures.wrap(err);
      }
    }
    this.out.collect(record);
    // An upstream operator of the chain may emit more records: they keep their own timestamp.
    slot.value = previous;
  }

  override processWatermark(timestamp: number): void {
    if (timestamp === Number.POSITIVE_INFINITY) this.#watermarks.emit(timestamp);
  }

  override processWatermarkStatus(): void {}

  override async finish(): Promise<void> {
    this.#stop();
    this.#periodicEmit();
  }

  override async close(): Promise<void> {
    this.#stop();
  }

  #periodicEmit(): void {
    try {
      this.#generator?.onPeriodicEmit(this.#watermarks);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }

  #schedule(interval: number): void {
    const { processingTime } = this.context;
    this.#cancelPeriodic = processingTime.registerTimer(processingTime.currentProcessingTime() + interval, () => {
      this.#periodicEmit();
      this.#schedule(interval);
    });
  }

  #stop(): void {
    this.#cancelPeriodic?.();
    this.#cancelPeriodic = undefined;
  }
}
