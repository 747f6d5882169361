import { WatermarkStrategy, type Collector, type Source, type SourceReader } from '@weir/api';
import { SourceReaderOutput } from '../time/source-reader-output.ts';
import { InternalList } from '../state/operator-state-store.ts';
import type { ChainOperator } from './chain-operator.ts';
import { notifyListener } from './checkpoint-hooks.ts';
import type { OperatorContext } from './operator-context.ts';
import type { Output } from './output.ts';

/**
 * Owns the SourceReader of a source task; the task's SourceInput drives it. The reader's
 * position (`snapshotState`) is the operator list "$source-reader"; a restored position goes
 * to `createReader`. The reader writes to a SourceReaderOutput: timestamps and watermarks of
 * the source's WatermarkStrategy (noWatermarks without one), emitted periodically every
 * pipeline.auto-watermark-interval; at the end of its input the final watermark follows,
 * unless the task stops with a savepoint without draining.
 */
export class SourceOperator implements ChainOperator {
  readonly label: string;
  readonly inputs: readonly Collector<unknown>[] = [];
  /** Where the reader's records and watermarks go: the rest of the chain. */
  readonly output: SourceReaderOutput;
  readonly #strategy: WatermarkStrategy<unknown>;
  #reader: SourceReader<unknown> | undefined;
  #cancelPeriodic: (() => void) | undefined;
  /** Stop-with-savepoint without drain: the input ends without the final watermark, so nothing fires that the savepoint holds. */
  #finalWatermark = true;

  constructor(
    private readonly source: Source<unknown>,
    watermarkStrategy: WatermarkStrategy<unknown> | undefined,
    chain: Output,
    readonly context: OperatorContext,
  ) {
    this.label = context.label;
    this.#strategy = watermarkStrategy ?? WatermarkStrategy.noWatermarks();
    this.output = new SourceReaderOutput(chain, context.timestamp, this.#strategy, context.processingTime, context.failures);
  }

  /** A source gets no watermarks: it makes its own. */
  processWatermark(): void {}

  processWatermarkStatus(): void {}

  /** The input ends by a stop-with-savepoint that does not drain: no final watermark. */
  endWithoutFinalWatermark(): void {
    this.#finalWatermark = false;
  }

  get reader(): SourceReader<unknown> {
    return this.#reader!;
  }

  async open(): Promise<void> {
    const positions = this.context.lists.internal(InternalList.SOURCE_READER);
    const restored = positions.entries.length === 0 ? undefined : [...positions.entries];
    // Each checkpoint writes the reader's position afresh; a reader without snapshotState leaves none.
    positions.clear();
    const reader = await this.context.failures.call(() => this.source.createReader(this.context.connector, restored));
    this.#reader = reader;
    if (reader.start !== undefined) await this.context.failures.call(() => reader.start!());
    this.#schedulePeriodicWatermark();
  }

  async finish(): Promise<void> {
    this.#stopPeriodicWatermark();
    if (!this.#finalWatermark) return;
    this.output.emitPeriodicWatermark();
    this.output.emitFinalWatermark();
  }

  #schedulePeriodicWatermark(): void {
    const interval = this.context.autoWatermarkIntervalMs;
    if (interval <= 0 || !this.#strategy.emitsWatermarks) return;
    const { processingTime } = this.context;
    const next = (): void => {
      this.#cancelPeriodic = processingTime.registerTimer(processingTime.currentProcessingTime() + interval, () => {
        this.output.emitPeriodicWatermark();
        next();
      });
    };
    next();
  }

  #stopPeriodicWatermark(): void {
    this.#cancelPeriodic?.();
    this.#cancelPeriodic = undefined;
  }

  async snapshotState(checkpointId: number): Promise<void> {
    const reader = this.#reader!;
    if (reader.snapshotState === undefined) return;
    let position: unknown;
    try {
      position = reader.snapshotState(checkpointId);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    this.context.lists.internal(InternalList.SOURCE_READER).update(position === undefined ? [] : [position]);
  }

  notifyCheckpointComplete(checkpointId: number): Promise<void> {
    return notifyListener(this.#reader, this.context.failures, checkpointId, true);
  }

  notifyCheckpointAborted(checkpointId: number): Promise<void> {
    return notifyListener(this.#reader, this.context.failures, checkpointId, false);
  }

  async close(): Promise<void> {
    this.#stopPeriodicWatermark();
    const reader = this.#reader;
    if (reader === undefined) return;
    this.#reader = undefined;
    if (reader.close !== undefined) await this.context.failures.call(() => reader.close!());
  }
}
