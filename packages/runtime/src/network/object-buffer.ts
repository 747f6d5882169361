import type { RecordBatch, RecordCodec } from '../codec/record-codec.ts';
import type { BufferItem } from './types.ts';

/**
 * A buffer handed to a consumer in the same TaskManager under object reuse: the records as the
 * producer emitted them, no bytes. Its payload is encoded on first use only (an unaligned
 * checkpoint storing it as channel state).
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
