import { encodeRecords } from '../network/record-codec.ts';
import type { FlushTimer } from './flush-timer.ts';

/** Where a finished buffer goes: one subpartition, or all of them for broadcast. */
export interface BufferTarget {
  addBuffer(payload: Uint8Array, recordCount: number): void;
}

/**
 * Records waiting to become one buffer. The batch flushes when it holds as many records as
 * fit in `targetBytes` by the bytes/record of its previous buffer; the first buffer holds
 * one record, so a stream of large records never builds a huge first buffer.
 */
export class OutputBatch {
  readonly #records: unknown[] = [];
  #threshold = 1;

  constructor(
    private readonly target: BufferTarget,
    private readonly timer: FlushTimer,
    /** 0 flushes after every record (buffer timeout 0). */
    private readonly targetBytes: number,
  ) {}

  add(record: unknown): void {
    const records = this.#records;
    records.push(record);
    if (records.length >= this.#threshold) this.flush();
    else if (records.length === 1) this.timer.arm();
  }

  flush(): void {
    const records = this.#records;
    const count = records.length;
    if (count === 0) return;
    const payload = encodeRecords(records);
    records.length = 0;
    if (this.targetBytes > 0) this.#threshold = Math.max(1, Math.floor((this.targetBytes * count) / Math.max(1, payload.byteLength)));
    this.target.addBuffer(payload, count);
  }
}
