import { Packr, Unpackr } from 'msgpackr';

// Plain MessagePack maps, no shared record structures: every buffer decodes on its own, so
// a consumer that joins late or restarts reads any buffer it is given.
const packr = new Packr({ useRecords: false });
const unpackr = new Unpackr({ useRecords: false });

/** One buffer: a MessagePack array of the records. */
export function encodeRecords(records: readonly unknown[]): Uint8Array {
  return packr.pack(records);
}

export function decodeRecords(payload: Uint8Array): unknown[] {
  const records: unknown = unpackr.unpack(payload);
  if (!Array.isArray(records)) throw new TypeError(`a record buffer must hold a MessagePack array, got ${typeof records}`);
  return records;
}
