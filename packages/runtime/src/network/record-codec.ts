import { Packr, Unpackr } from 'msgpackr';

// Plain MessagePack maps, no shared record structures: every buffer decodes on its own, so
// a consumer that joins late or restarts reads any buffer it is given.
const packr = new Packr({ useRecords: false });
const unpackr = new Unpackr({ useRecords: false });

/** The records of one buffer and, when any has one, their event-time timestamps (NaN: none). */
export interface RecordBatch {
  readonly records: unknown[];
  readonly timestamps: Float64Array | undefined;
}

/**
 * One buffer. Without timestamps: a MessagePack array of the records. With timestamps: a
 * MessagePack map `{ r: records, t: <bytes of a Float64Array> }`, one timestamp per record
 * (NaN for a record without one), so timestamps travel with their records over every path a
 * buffer takes (the wire, local channels, unaligned checkpoints' channel state).
 */
export function encodeRecords(records: readonly unknown[], timestamps?: Float64Array): Uint8Array {
  if (timestamps === undefined) return packr.pack(records);
  return packr.pack({ r: records, t: new Uint8Array(timestamps.buffer, timestamps.byteOffset, timestamps.byteLength) });
}

export function decodeRecordBatch(payload: Uint8Array): RecordBatch {
  const decoded: unknown = unpackr.unpack(payload);
  if (Array.isArray(decoded)) return { records: decoded, timestamps: undefined };
  const batch = decoded as { r?: unknown; t?: unknown } | null;
  if (batch === null || typeof batch !== 'object' || !Array.isArray(batch.r) || !(batch.t instanceof Uint8Array)) {
    throw new TypeError(`a record buffer must hold a MessagePack array or a map of records and timestamps, got ${typeof decoded}`);
  }
  // Copied: the bytes sit at any offset of the payload, a Float64Array needs 8-byte alignment.
  const timestamps = new Float64Array(Uint8Array.from(batch.t).buffer);
  if (timestamps.length !== batch.r.length) throw new TypeError(`a record buffer has ${batch.r.length} records but ${timestamps.length} timestamps`);
  return { records: batch.r, timestamps };
}

export function decodeRecords(payload: Uint8Array): unknown[] {
  return decodeRecordBatch(payload).records;
}
