import { isSplitSource, WatermarkStrategy, type AnySource, type Collector, type SourceReader, type SourceSplit, type SplitSourceReader } from '@weir/api';
import { CommonErrorCode, WeirError, type EnumeratorEvent } from '@weir/common';
import { SourceReaderOutput } from '../time/source-reader-output.ts';
import { InternalList } from '../state/operator-state-store.ts';
import type { ChainOperator } from './chain-operator.ts';
import { notifyListener } from './checkpoint-hooks.ts';
import type { OperatorContext } from './operator-context.ts';
import type { Output } from './output.ts';

/**
 * Owns the reader of a source task; the task's SourceInput drives it. What the reader
 * snapshots is the operator list "$source-reader": a split source's reader (FLIP-27) its
 * unfinished splits, dealt round-robin on rescale, added back before it starts, after which it
 * registers with its enumerator, which assigns it splits through `handleOperatorEvent`; a
 * simple source's reader its one position, handed to `createReader`.
 *
 * The reader writes to a SourceReaderOutput: timestamps and watermarks of the source's
 * WatermarkStrategy (noWatermarks without one; per split for a split source, each split's
 * output made when the split is assigned), emitted periodically every
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
  /** Set when the source is a split source: the same reader. */
  #splitReader: SplitSourceReader<unknown, SourceSplit> | undefined;
  #cancelPeriodic: (() => void) | undefined;
  /** Stop-with-savepoint without drain: the input ends without the final watermark, so nothing fires that the savepoint holds. */
  #finalWatermark = true;

  constructor(
    private readonly source: AnySource<unknown>,
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
    const { lists, failures, connector, sendOperatorEvent } = this.context;
    const stored = lists.internal(InternalList.SOURCE_READER);
    const restored = [...stored.entries];
    // Each checkpoint writes the reader's state afresh; a reader without snapshotState leaves none.
    stored.clear();
    const source = this.source;
    if (isSplitSource(source)) {
      const reader = await failures.call(() => source.createReader({ ...connector, sendSplitRequest: () => sendOperatorEvent({ kind: 'split-request' }) }));
      this.#reader = reader;
      this.#splitReader = reader;
      if (restored.length > 0) {
        this.#createSplitOutputs(restored as SourceSplit[]);
        await failures.call(() => reader.addSplits(restored as SourceSplit[]));
      }
    } else {
      this.#reader = await failures.call(() => source.createReader(connector, restored.length === 0 ? undefined : restored));
    }
    const reader = this.#reader;
    if (reader.start !== undefined) await failures.call(() => reader.start!());
    if (this.#splitReader !== undefined) sendOperatorEvent({ kind: 'reader-registered' });
    this.#schedulePeriodicWatermark();
  }

  /** An event from the split source's enumerator, on the task's loop; a reader that throws fails the task. */
  handleOperatorEvent(event: EnumeratorEvent): void {
    const reader = this.#splitReader;
    if (reader === undefined) throw new WeirError(CommonErrorCode.INTERNAL, `${this.label} got ${event.kind} but reads no split source`);
    try {
      if (event.kind === 'add-splits') {
        this.#createSplitOutputs(event.splits as SourceSplit[]);
        reader.addSplits(event.splits as SourceSplit[]);
      } else if (event.kind === 'no-more-splits') {
        reader.notifyNoMoreSplits();
      }
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }

  /**
   * Gives each split its watermark output when it is assigned (restored, or from the
   * enumerator), as Flink's SourceOperator.createOutputForSplits does, not when the reader
   * first emits for it: a split that has emitted nothing yet holds the reader's watermark back
   * (until the strategy's idleness marks it idle), so its first records are not late behind
   * another split's. The reader releases the output when the split is done.
   */
  #createSplitOutputs(splits: readonly SourceSplit[]): void {
    for (const split of splits) this.output.createOutputForSplit(split.splitId);
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
    let state: unknown;
    try {
      state = reader.snapshotState(checkpointId);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    const entries = this.#splitReader !== undefined ? (state as SourceSplit[]) : state === undefined ? [] : [state];
    this.context.lists.internal(InternalList.SOURCE_READER).update(entries);
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
    this.#splitReader = undefined;
    if (reader.close !== undefined) await this.context.failures.call(() => reader.close!());
  }
}
