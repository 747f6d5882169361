import type { RecordBatch, RecordCodec } from '../codec/record-codec.ts';
import type { BufferItem } from './types.ts';

/**
 * A buffer handed to a consumer in the same TaskManager under object reuse: the records as the
 * producer emitted them, no bytes. Its payload is encoded on first use only (an unaligned
 * checkpoint storing it as channel state, see `encodedNow`).
 */
export class ObjectBuffer implements BufferItem {
  readonly kind = 'buffer';
  #payload: Uint8Array | undefined;

  constructor(
    readonly batch: RecordBatch,
    private readonly codec: RecordCodec,
    /** Some record needs converting before it is encoded (RecordCodec.check said so). */
    private readonly special: boolean,
  ) {}

  get recordCount(): number {
    return this.batch.records.length;
  }

  get payload(): Uint8Array {
    this.#payload ??= this.codec.encode(this.batch.records, this.batch.keyGroups, this.batch.timestamps, this.special);
    return this.#payload;
  }
}

/**
 * A buffer as channel state keeps it: an ObjectBuffer's records encoded now, as the producer
 * emitted them, into a plain byte buffer. An unaligned checkpoint takes its channel state when
 * a buffer is overtaken or recorded, but writes it only once all barriers arrived, and by then the
 * consumer may have processed these very objects and changed them (only the producer is bound not
 * to change a record after emitting it): encoding later would store the changed records, and a
 * restore would replay them changed.
 */
export function encodedNow(buffer: BufferItem): BufferItem {
  return buffer.batch === undefined ? buffer : { kind: 'buffer', payload: buffer.payload, recordCount: buffer.recordCount };
}
