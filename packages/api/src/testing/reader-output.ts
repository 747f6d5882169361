import type { ReaderOutput, SourceOutput } from '../connector/types.ts';
import type { Watermark } from '../time/watermark.ts';

/** What a RecordingReaderOutput saw, in order; split outputs record with their split ID. */
export type RecordedOutput<T> =
  | { readonly kind: 'record'; readonly record: T; readonly timestamp: number | undefined; readonly split?: string }
  | { readonly kind: 'watermark'; readonly timestamp: number; readonly split?: string }
  | { readonly kind: 'idle' | 'active'; readonly split?: string };

/**
 * A ReaderOutput for unit tests of source readers (`@weir/api/testing`): keeps everything
 * emitted, `records` for the records alone.
 */
export class RecordingReaderOutput<T> implements ReaderOutput<T> {
  readonly events: RecordedOutput<T>[] = [];
  readonly #splits = new Map<string, SourceOutput<T>>();
  /** Splits released, in order. */
  readonly released: string[] = [];

  get records(): T[] {
    return this.events.flatMap((e) => (e.kind === 'record' ? [e.record] : []));
  }

  collect(record: T, timestamp?: number): void {
    this.events.push({ kind: 'record', record, timestamp });
  }

  emitWatermark(watermark: Watermark): void {
    this.events.push({ kind: 'watermark', timestamp: watermark.timestamp });
  }

  markIdle(): void {
    this.events.push({ kind: 'idle' });
  }

  markActive(): void {
    this.events.push({ kind: 'active' });
  }

  createOutputForSplit(split: string): SourceOutput<T> {
    let output = this.#splits.get(split);
    if (output === undefined) {
      const events = this.events;
      output = {
        collect: (record, timestamp) => events.push({ kind: 'record', record, timestamp, split }),
        emitWatermark: (watermark) => events.push({ kind: 'watermark', timestamp: watermark.timestamp, split }),
        markIdle: () => events.push({ kind: 'idle', split }),
        markActive: () => events.push({ kind: 'active', split }),
      };
      this.#splits.set(split, output);
    }
    return output;
  }

  releaseOutputForSplit(split: string): void {
    this.#splits.delete(split);
    this.released.push(split);
  }
}

/** A ReaderOutput that pushes every record (of any split) into `records`, for tests that only look at records. */
export function readerOutputInto<T>(records: T[]): ReaderOutput<T> {
  const output: ReaderOutput<T> = {
    collect: (record) => void records.push(record),
    emitWatermark: () => {},
    markIdle: () => {},
    markActive: () => {},
    createOutputForSplit: () => output,
    releaseOutputForSplit: () => {},
  };
  return output;
}
