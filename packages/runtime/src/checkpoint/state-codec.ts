import { PackedEntry, type StateMetaInfo } from '@weir/common';
import { Packr, Unpackr } from 'msgpackr';
import { CLEAN, checkValue, convertValue } from '../codec/generic-values.ts';
import { normalizeKey } from '../state/key-context.ts';

/**
 * MessagePack for state: each value stands alone (no shared record structures), and comes
 * back as the value a record would bring: Map, Set, Date, BigInt of any size, -0, arrays with
 * holes and prototype-less objects as they were (the wrappers of special-values.ts where
 * msgpackr would change them). Bytes written before Maps were wrapped read as they always did.
 */
const packr = new Packr({ useRecords: false, moreTypes: true });
const unpackr = new Unpackr({ useRecords: false, moreTypes: true });

export function packState(value: unknown): Uint8Array {
  return packr.pack(checkValue(value, 0) === CLEAN ? value : convertValue(value, true));
}

/** An operator state list entry as it goes into @weir/common's operator state bytes, which the JobManager re-deals without reading. */
export function packListEntry(value: unknown): PackedEntry {
  return new PackedEntry(packState(value));
}

/** The inverse of packListEntry; an entry of a checkpoint written before entries were packed is its value already. */
export function unpackListEntry(entry: unknown): unknown {
  return entry instanceof PackedEntry ? unpackState(entry.bytes) : entry;
}

export function unpackState(bytes: Uint8Array): unknown {
  return unpackr.unpack(asBuffer(bytes));
}

/** A sequence of MessagePack values written back to back (one key group's chunks). */
export function unpackStateSequence(bytes: Uint8Array): unknown[] {
  return bytes.byteLength === 0 ? [] : unpackr.unpackMultiple(asBuffer(bytes));
}

/** msgpackr reads a bin as a Buffer only from a Buffer: a Buffer in state must come back a Buffer, apart from a Uint8Array. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A table value as it is written: map state's inner Map as its [userKey, value] pairs (MessagePack maps come back as objects). */
export function encodeStateValue(kind: StateMetaInfo['kind'], value: unknown): unknown {
  return kind === 'map' ? [...(value as Map<unknown, unknown>).values()] : value;
}

/** The inverse of encodeStateValue: map state's pairs back into an inner Map keyed by the normalized user key. */
export function decodeStateValue(kind: StateMetaInfo['kind'], value: unknown): unknown {
  if (kind !== 'map') return value;
  const map = new Map<unknown, [unknown, unknown]>();
  for (const [key, v] of value as [unknown, unknown][]) map.set(normalizeKey(key), [key, v]);
  return map;
}
