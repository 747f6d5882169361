import type { RecordCodec } from '../codec/record-codec.ts';
import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import { ObjectBuffer } from '../network/object-buffer.ts';
import type { BufferItem } from '../network/types.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { FlushTimer } from './flush-timer.ts';

/** Where a finished buffer goes: one subpartition, or all of them for broadcast. */
export interface BufferTarget {
  addBufferItem(buffer: BufferItem): void;
  /** The consumer runs in this process and can take the records as objects. */
  readonly takesObjects: boolean;
}

/** How the batches of a task's writers flush. */
export interface BatchOptions {
  readonly timer: FlushTimer;
  /** 0 flushes after every record (buffer timeout 0). */
  readonly targetBytes: number;
  /** env.getConfig().enableObjectReuse(): batches for consumers in this TaskManager go as objects. */
  readonly objectReuse: boolean;
  /** The task's current record timestamp: written with each record. */
  readonly timestamp: RecordTimestamp;
  readonly metrics: TaskIOMetrics;
}

/** Under object reuse, a batch handed over as objects has no byte size to go by: at most this many records. */
export const OBJECT_BATCH_RECORDS = 1024;

/**
 * Records waiting to become one buffer, with their key groups on a keyBy edge and their
 * event-time timestamps (the task's RecordTimestamp when each is added; a batch whose records
 * have none carries none). The batch flushes when it holds as many records as fit in
 * `targetBytes` by the bytes/record of its previous buffer; the first buffer holds one record,
 * so a stream of large records never builds a huge first buffer. Records come checked by the
 * codec; under object reuse, a batch for a consumer in this TaskManager is handed over as the
 * records themselves.
 *
 * The record and key group arrays are kept from one buffer to the next (emptied, not
 * shrunk): regrown from nothing for every buffer, they cost some 25 bytes of garbage and
 * their copying per record.
 */
export class OutputBatch {
  #records: unknown[] = [];
  #count = 0;
  /** On a keyBy edge; grown by doubling. */
  #keyGroups: Uint16Array | undefined;
  /** Timestamps of the records so far, NaN for none; undefined while no record of the batch had one. */
  #timestamps: number[] | undefined;
  /** Some record of the batch must be converted before encoding (RecordCodec.check). */
  #special = false;
  #threshold = 1;
  readonly #timestamp: RecordTimestamp;

  constructor(
    private readonly target: BufferTarget,
    private readonly codec: RecordCodec,
    keyed: boolean,
    private readonly options: BatchOptions,
  ) {
    this.#keyGroups = keyed ? new Uint16Array(64) : undefined;
    this.#timestamp = options.timestamp;
  }

  /** A record `codec.check` passed; `special` is what it returned. */
  add(record: unknown, special: boolean): void {
    const count = this.#count;
    const timestamp = this.#timestamp.value;
    if (timestamp !== undefined) (this.#timestamps ??= new Array<number>(count).fill(Number.NaN)).push(timestamp);
    else if (this.#timestamps !== undefined) this.#timestamps.push(Number.NaN);
    this.#records[count] = record;
    this.#count = count + 1;
    if (special) this.#special = true;
    if (count + 1 >= this.#threshold) this.flush();
    else if (count === 0) this.options.timer.arm();
  }

  /** On a keyBy edge: the record and the key group it was routed by. */
  addKeyed(record: unknown, special: boolean, keyGroup: number): void {
    let keyGroups = this.#keyGroups!;
    if (this.#count === keyGroups.length) {
      const grown = new Uint16Array(2 * keyGroups.length);
      grown.set(keyGroups);
      this.#keyGroups = keyGroups = grown;
    }
    keyGroups[this.#count] = keyGroup;
    this.add(record, special);
  }

  flush(): void {
    const count = this.#count;
    if (count === 0) return;
    const records = this.#records;
    // Left longer by a larger batch before: the rest are records already sent.
    if (records.length !== count) records.length = count;
    const { targetBytes, metrics } = this.options;
    const keyGroups = this.#keyGroups?.subarray(0, count);
    const timestamps = this.#timestamps;
    const special = this.#special;
    this.#count = 0;
    this.#special = false;
    this.#timestamps = undefined;
    metrics.numRecordsOut += count;
    if (this.options.objectReuse && this.target.takesObjects) {
      // The consumer keeps the arrays: new ones for the next batch.
      this.#records = [];
      if (keyGroups !== undefined) this.#keyGroups = new Uint16Array(this.#keyGroups!.length);
      if (targetBytes > 0) this.#threshold = Math.min(2 * this.#threshold, OBJECT_BATCH_RECORDS);
      this.target.addBufferItem(new ObjectBuffer({ records, keyGroups, timestamps }, this.codec, special));
      return;
    }
    const payload = this.codec.encode(records, keyGroups, timestamps, special);
    // The records are garbage once encoded: not kept alive (and promoted) until overwritten.
    records.fill(undefined);
    if (targetBytes > 0) this.#threshold = Math.max(1, Math.floor((targetBytes * count) / Math.max(1, payload.byteLength)));
    metrics.numBytesOut += payload.byteLength;
    this.target.addBufferItem({ kind: 'buffer', payload, recordCount: count });
  }
}
