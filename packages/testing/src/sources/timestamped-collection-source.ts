import { Boundedness, InputStatus, Watermark, WeirError, type ConnectorContext, type ReaderOutput, type Source, type SourceReader } from '@weir/api';
import { TestingErrorCode } from '../errors.ts';

/** One element of a TimestampedCollectionSource: a record with its event time, or a watermark. */
export type TimestampedElement<T> = { readonly value: T; readonly timestamp: number } | { readonly watermark: number };

/**
 * A bounded source of given records with event-time timestamps and watermarks placed between
 * them, in order (what Flink tests build with a SourceFunction emitting
 * collectWithTimestamp/emitWatermark). Its first subtask emits everything, the others nothing,
 * so a test decides exactly where each watermark falls; use it with
 * `WatermarkStrategy.noWatermarks()`, which leaves the source's own watermarks alone. Restores
 * to its position after a failure. Elements must be JSON-like values (every process of the
 * job builds the source again from the job module).
 */
export class TimestampedCollectionSource<T> implements Source<T> {
  readonly boundedness = Boundedness.BOUNDED;
  readonly elements: readonly TimestampedElement<T>[];

  constructor(elements: readonly TimestampedElement<T>[]) {
    elements.forEach((e, i) => {
      const ok = e !== null && typeof e === 'object' && (('watermark' in e && typeof e.watermark === 'number') || ('value' in e && typeof e.timestamp === 'number'));
      if (!ok) throw new WeirError(TestingErrorCode.INVALID_ELEMENT, `element ${i} of a TimestampedCollectionSource is { value, timestamp } or { watermark }, got ${JSON.stringify(e)}`);
    });
    this.elements = elements;
  }

  /** Records at the given timestamps, with a watermark equal to each record's timestamp after it (ascending event time). */
  static ascending<T>(records: readonly (readonly [T, number])[]): TimestampedCollectionSource<T> {
    return new TimestampedCollectionSource<T>(records.flatMap(([value, timestamp]): TimestampedElement<T>[] => [{ value, timestamp }, { watermark: timestamp }]));
  }

  createReader(context: ConnectorContext, restoredState?: readonly unknown[]): SourceReader<T> {
    const restored = restoredState?.find((s): s is number => typeof s === 'number');
    const start = context.subtaskIndex === 0 ? (restored ?? 0) : this.elements.length;
    return new TimestampedCollectionReader(this.elements, start);
  }
}

class TimestampedCollectionReader<T> implements SourceReader<T> {
  constructor(
    private readonly elements: readonly TimestampedElement<T>[],
    private next: number,
  ) {}

  pollNext(output: ReaderOutput<T>): InputStatus {
    const element = this.elements[this.next];
    if (element === undefined) return InputStatus.END_OF_INPUT;
    this.next++;
    if ('watermark' in element) output.emitWatermark(new Watermark(element.watermark));
    else output.collect(element.value, element.timestamp);
    return this.next < this.elements.length ? InputStatus.MORE_AVAILABLE : InputStatus.END_OF_INPUT;
  }

  isAvailable(): Promise<void> {
    return Promise.resolve();
  }

  snapshotState(): number {
    return this.next;
  }
}
