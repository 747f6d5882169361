import type { AsyncOutputMode } from '@weir/api';

/** One input of an async operator, from arrival until its results are emitted. */
export interface RecordEntry {
  readonly kind: 'record';
  readonly input: unknown;
  readonly timestamp: number | undefined;
  /** Invoked (capacity allowed it); entries beyond the capacity wait un-invoked. */
  started: boolean;
  /** Attempts made so far (Flink's currentAttempts): a result future of an older attempt is ignored. */
  attempts: number;
  /** The records to emit, once complete. */
  results: unknown[] | undefined;
  /** The results of the last attempt a result predicate retried: what a timeout completes with (as Flink). */
  lastResults: unknown[] | undefined;
  /** Cancels its timeout and a scheduled retry. */
  cancelTimers: (() => void) | undefined;
}

export interface WatermarkEntry {
  readonly kind: 'watermark';
  readonly timestamp: number;
}

export type QueueEntry = RecordEntry | WatermarkEntry;

/** What an async operator's snapshot keeps per queue entry: its input (and timestamp), or a watermark. */
export type SnapshotEntry = { readonly v: unknown; readonly t?: number } | { readonly w: number };

/**
 * The entries of an async operator in arrival order (Flink's StreamElementQueue), watermarks
 * included. Ordered: only the head leaves, once complete. Unordered: any complete record
 * before the first watermark leaves; a watermark leaves once nothing is before it, so no
 * result crosses a watermark (Flink's UnorderedStreamElementQueue segments).
 */
export class AsyncQueue {
  readonly #entries: QueueEntry[] = [];
  /** Record entries in the queue: what the capacity bounds. */
  records = 0;
  started = 0;

  constructor(private readonly mode: AsyncOutputMode) {}

  get isEmpty(): boolean {
    return this.#entries.length === 0;
  }

  addRecord(input: unknown, timestamp: number | undefined): RecordEntry {
    const entry: RecordEntry = { kind: 'record', input, timestamp, started: false, attempts: 0, results: undefined, lastResults: undefined, cancelTimers: undefined };
    this.#entries.push(entry);
    this.records++;
    return entry;
  }

  addWatermark(timestamp: number): void {
    this.#entries.push({ kind: 'watermark', timestamp });
  }

  /** The entries not yet invoked, in order, as many as `capacity` allows in flight. */
  toStart(capacity: number): RecordEntry[] {
    const ready: RecordEntry[] = [];
    for (const entry of this.#entries) {
      if (this.started + ready.length >= capacity) break;
      if (entry.kind === 'record' && !entry.started) ready.push(entry);
    }
    return ready;
  }

  /** Takes what may leave now, in emission order. */
  takeEmittable(): QueueEntry[] {
    const out: QueueEntry[] = [];
    const entries = this.#entries;
    for (;;) {
      const head = entries[0];
      if (head === undefined) break;
      if (head.kind === 'watermark' || head.results !== undefined) {
        out.push(this.#remove(0));
        continue;
      }
      if (this.mode === 'ordered') break;
      let i = 1;
      for (; i < entries.length && entries[i]!.kind === 'record'; ) {
        if ((entries[i] as RecordEntry).results !== undefined) out.push(this.#remove(i));
        else i++;
      }
      break;
    }
    return out;
  }

  /** Every entry, for a snapshot: inputs of records (complete or not, they are invoked again after a restore) and watermarks. */
  snapshot(): SnapshotEntry[] {
    return this.#entries.map((e) => (e.kind === 'watermark' ? { w: e.timestamp } : e.timestamp === undefined ? { v: e.input } : { v: e.input, t: e.timestamp }));
  }

  /** Every record entry (close cancels their timers). */
  recordEntries(): RecordEntry[] {
    return this.#entries.filter((e): e is RecordEntry => e.kind === 'record');
  }

  #remove(index: number): QueueEntry {
    const [entry] = this.#entries.splice(index, 1) as [QueueEntry];
    if (entry.kind === 'record') {
      this.records--;
      if (entry.started) this.started--;
    }
    return entry;
  }
}
