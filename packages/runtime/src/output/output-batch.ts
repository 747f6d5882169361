import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import { encodeRecords } from '../network/record-codec.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { FlushTimer } from './flush-timer.ts';

/** Where a finished buffer goes: one subpartition, or all of them for broadcast. */
export interface BufferTarget {
  addBuffer(payload: Uint8Array, recordCount: number): void;
}

/**
 * Records waiting to become one buffer. The batch flushes when it holds as many records as
 * fit in `targetBytes` by the bytes/record of its previous buffer; the first buffer holds
 * one record, so a stream of large records never builds a huge first buffer. Each record's
 * event-time timestamp (the task's RecordTimestamp when it is added) goes with it; a batch
 * whose records have none encodes none.
 */
export class OutputBatch {
  readonly #records: unknown[] = [];
  /** Timestamps of the records so far, NaN for none; undefined while no record of the batch had one. */
  #timestamps: number[] | undefined;
  #threshold = 1;

  constructor(
    private readonly target: BufferTarget,
    private readonly timer: FlushTimer,
    /** 0 flushes after every record (buffer timeout 0). */
    private readonly targetBytes: number,
    private readonly timestamp: RecordTimestamp,
    private readonly metrics: TaskIOMetrics,
  ) {}

  add(record: unknown): void {
    const records = this.#records;
    const timestamp = this.timestamp.value;
    if (timestamp !== undefined) (this.#timestamps ??= new Array<number>(records.length).fill(Number.NaN)).push(timestamp);
    else this.#timestamps?.push(Number.NaN);
    records.push(record);
    if (records.length >= this.#threshold) this.flush();
    else if (records.length === 1) this.timer.arm();
  }

  flush(): void {
    const records = this.#records;
    const count = records.length;
    if (count === 0) return;
    const timestamps = this.#timestamps;
    const payload = encodeRecords(records, timestamps === undefined ? undefined : Float64Array.from(timestamps));
    records.length = 0;
    this.#timestamps = undefined;
    if (this.targetBytes > 0) this.#threshold = Math.max(1, Math.floor((this.targetBytes * count) / Math.max(1, payload.byteLength)));
    this.metrics.numRecordsOut += count;
    this.metrics.numBytesOut += payload.byteLength;
    this.target.addBuffer(payload, count);
  }
}
