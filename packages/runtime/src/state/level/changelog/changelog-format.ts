import type { BatchWriter, RawOperation } from '../level-store.ts';

/**
 * A changelog segment: the DB writes of one stretch of time, in order, as records
 * `[kind: 1 byte (1 put, 0 delete)][key length: u32][key]([value length: u32][value])`,
 * after a 4-byte magic. Keys are the DB's own (level-key.ts): each starts with its key group,
 * so a restore at another parallelism keeps the changes of its range by reading the key.
 */
const MAGIC = Buffer.from('WCL1', 'latin1');
const PUT = 1;
const DEL = 0;
/** First allocation of a segment's buffer; it doubles as it fills. */
const INITIAL_BYTES = 64 * 1024;

/** Appends writes to the open segment; `take` closes it. */
export class ChangelogEncoder implements BatchWriter {
  #bytes = newSegment();
  #length = MAGIC.byteLength;
  #records = 0;

  get records(): number {
    return this.#records;
  }

  put(key: Buffer, value: Buffer): void {
    this.#reserve(9 + key.byteLength + value.byteLength);
    this.#bytes[this.#length++] = PUT;
    this.#field(key);
    this.#field(value);
    this.#records++;
  }

  del(key: Buffer): void {
    this.#reserve(5 + key.byteLength);
    this.#bytes[this.#length++] = DEL;
    this.#field(key);
    this.#records++;
  }

  /** The segment's bytes, or undefined when nothing was written; starts a new segment. Not copied: a checkpoint's synchronous part takes it. */
  take(): Buffer | undefined {
    if (this.#records === 0) return undefined;
    const segment = this.#bytes.subarray(0, this.#length);
    this.#bytes = newSegment();
    this.#length = MAGIC.byteLength;
    this.#records = 0;
    return segment;
  }

  #field(bytes: Buffer): void {
    this.#bytes.writeUInt32BE(bytes.byteLength, this.#length);
    bytes.copy(this.#bytes, this.#length + 4);
    this.#length += 4 + bytes.byteLength;
  }

  #reserve(bytes: number): void {
    if (this.#length + bytes <= this.#bytes.byteLength) return;
    let size = this.#bytes.byteLength * 2;
    while (size < this.#length + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.#bytes.copy(grown, 0, 0, this.#length);
    this.#bytes = grown;
  }
}

function newSegment(): Buffer {
  const bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  MAGIC.copy(bytes, 0);
  return bytes;
}

/** The writes of a segment, in order; throws on bytes that are not a segment (the caller names the file). */
export function* decodeChangelog(segment: Uint8Array): Generator<RawOperation> {
  const bytes = Buffer.from(segment.buffer, segment.byteOffset, segment.byteLength);
  if (bytes.byteLength < MAGIC.byteLength || !bytes.subarray(0, MAGIC.byteLength).equals(MAGIC)) throw new Error('it is not a changelog segment (no WCL1 magic)');
  let at = MAGIC.byteLength;
  const field = (): Buffer => {
    if (at + 4 > bytes.byteLength) throw new Error(`it ends inside a record at byte ${at}`);
    const length = bytes.readUInt32BE(at);
    if (at + 4 + length > bytes.byteLength) throw new Error(`it ends inside a record at byte ${at}`);
    const value = bytes.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return value;
  };
  while (at < bytes.byteLength) {
    const kind = bytes[at++];
    if (kind === PUT) {
      const key = field();
      yield { type: 'put', key, value: field() };
    } else if (kind === DEL) {
      yield { type: 'del', key: field() };
    } else {
      throw new Error(`it has a record of unknown kind ${kind} at byte ${at - 1}`);
    }
  }
}
