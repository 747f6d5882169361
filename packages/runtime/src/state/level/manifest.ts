/**
 * Reads a LevelDB MANIFEST: a log file (32 KiB blocks of records with a 7-byte header) of
 * VersionEdits. Replaying the edits gives the table files the DB consists of, so a
 * checkpoint takes exactly those and never a table a compaction is still writing.
 */

const BLOCK_SIZE = 32 * 1024;
const HEADER_SIZE = 7;
const RecordType = { ZERO: 0, FULL: 1, FIRST: 2, MIDDLE: 3, LAST: 4 } as const;
const Tag = { COMPARATOR: 1, LOG_NUMBER: 2, NEXT_FILE_NUMBER: 3, LAST_SEQUENCE: 4, COMPACT_POINTER: 5, DELETED_FILE: 6, NEW_FILE: 7, PREV_LOG_NUMBER: 9 } as const;

export interface ManifestState {
  /** The live table files (`<number>.ldb`, or `.sst` when written by an old LevelDB): number → size in bytes. */
  readonly tables: ReadonlyMap<number, number>;
  /** Logs with this number or higher hold writes not yet in a table. */
  readonly logNumber: number;
  readonly prevLogNumber: number;
}

export function readManifest(bytes: Uint8Array): ManifestState {
  const live = new Map<string, { readonly number: number; readonly size: number }>();
  let logNumber = 0;
  let prevLogNumber = 0;
  for (const record of logRecords(bytes)) {
    const edit = decodeEdit(record);
    if (edit.logNumber !== undefined) logNumber = edit.logNumber;
    if (edit.prevLogNumber !== undefined) prevLogNumber = edit.prevLogNumber;
    // As LevelDB applies an edit: its deletions first, then its additions (a trivial move does both for one file).
    for (const file of edit.deleted) live.delete(file);
    for (const [file, table] of edit.added) live.set(file, table);
  }
  return { tables: new Map([...live.values()].map((t) => [t.number, t.size])), logNumber, prevLogNumber };
}

/** The records of a LevelDB log; a torn record at the end (a writer in the middle of appending) ends it, as LevelDB's reader does. */
function* logRecords(bytes: Uint8Array): Generator<Uint8Array> {
  let at = 0;
  let fragments: Uint8Array[] = [];
  while (at < bytes.byteLength) {
    const leftInBlock = BLOCK_SIZE - (at % BLOCK_SIZE);
    if (leftInBlock < HEADER_SIZE) {
      at += leftInBlock;
      continue;
    }
    if (at + HEADER_SIZE > bytes.byteLength) return;
    const length = bytes[at + 4]! | (bytes[at + 5]! << 8);
    const type = bytes[at + 6]!;
    const start = at + HEADER_SIZE;
    if (start + length > bytes.byteLength) return;
    const payload = bytes.subarray(start, start + length);
    at = start + length;
    switch (type) {
      case RecordType.ZERO:
        continue;
      case RecordType.FULL:
        fragments = [];
        yield payload;
        break;
      case RecordType.FIRST:
        fragments = [payload];
        break;
      case RecordType.MIDDLE:
        fragments.push(payload);
        break;
      case RecordType.LAST:
        fragments.push(payload);
        yield Buffer.concat(fragments);
        fragments = [];
        break;
      default:
        throw new Error(`the MANIFEST has a record of unknown type ${type} at byte ${start - HEADER_SIZE}`);
    }
  }
}

interface VersionEdit {
  logNumber: number | undefined;
  prevLogNumber: number | undefined;
  readonly deleted: string[];
  readonly added: [string, { readonly number: number; readonly size: number }][];
}

function decodeEdit(record: Uint8Array): VersionEdit {
  const reader = new Reader(record);
  const edit: VersionEdit = { logNumber: undefined, prevLogNumber: undefined, deleted: [], added: [] };
  while (!reader.done) {
    const tag = reader.varint();
    switch (tag) {
      case Tag.COMPARATOR:
        reader.slice();
        break;
      case Tag.LOG_NUMBER:
        edit.logNumber = reader.varint();
        break;
      case Tag.PREV_LOG_NUMBER:
        edit.prevLogNumber = reader.varint();
        break;
      case Tag.NEXT_FILE_NUMBER:
      case Tag.LAST_SEQUENCE:
        reader.varint();
        break;
      case Tag.COMPACT_POINTER:
        reader.varint();
        reader.slice();
        break;
      case Tag.DELETED_FILE: {
        const level = reader.varint();
        edit.deleted.push(`${level}:${reader.varint()}`);
        break;
      }
      case Tag.NEW_FILE: {
        const level = reader.varint();
        const number = reader.varint();
        const size = reader.varint();
        reader.slice();
        reader.slice();
        edit.added.push([`${level}:${number}`, { number, size }]);
        break;
      }
      default:
        throw new Error(`the MANIFEST has a version edit with unknown tag ${tag}`);
    }
  }
  return edit;
}

class Reader {
  #at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.#at >= this.bytes.byteLength;
  }

  /** A varint32 or varint64; numbers past 2^53 (sequence numbers) lose precision, which nothing here reads. */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.#at >= this.bytes.byteLength) throw new Error('the MANIFEST ends inside a varint');
      const byte = this.bytes[this.#at++]!;
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return value;
      scale *= 128;
    }
  }

  slice(): Uint8Array {
    const length = this.varint();
    if (this.#at + length > this.bytes.byteLength) throw new Error('the MANIFEST ends inside a length-prefixed field');
    const slice = this.bytes.subarray(this.#at, this.#at + length);
    this.#at += length;
    return slice;
  }
}
