import type { StateMetaInfo } from '@weir/common';
import { Packr, Unpackr } from 'msgpackr';
import { normalizeKey } from '../state/key-context.ts';

/**
 * MessagePack for state, with the settings records travel with (plain maps, no shared
 * structures), so a state value restores as it would arrive in a record.
 */
const packr = new Packr({ useRecords: false });
const unpackr = new Unpackr({ useRecords: false });

export function packState(value: unknown): Uint8Array {
  return packr.pack(value);
}

export function unpackState(bytes: Uint8Array): unknown {
  return unpackr.unpack(bytes);
}

/** A sequence of MessagePack values written back to back (one key group's chunks). */
export function unpackStateSequence(bytes: Uint8Array): unknown[] {
  return bytes.byteLength === 0 ? [] : unpackr.unpackMultiple(bytes);
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
