import { addExtension, Packr, Unpackr } from 'msgpackr';
import type { OperatorStateHandle } from './types.ts';

/**
 * The bytes of an OperatorStateHandle, written by tasks and re-dealt by the JobManager on
 * rescale: one MessagePack map of list name to entries. Tasks write each entry as a
 * PackedEntry, the bytes of their own state codec, so the JobManager moves users' values
 * without reading them (it does not know how a task encodes a Map or a BigInt) and a
 * re-dealt entry restores exactly as it was written.
 */
const packr = new Packr({ useRecords: false });
const unpackr = new Unpackr({ useRecords: false });

/** One entry's bytes, opaque here. */
export class PackedEntry {
  constructor(readonly bytes: Uint8Array) {}
}

/** 'P': no msgpackr built-in and none of the runtime's record wrappers use it. */
const PACKED_ENTRY = 0x50;

addExtension({
  Class: PackedEntry,
  type: PACKED_ENTRY,
  pack: (entry: PackedEntry) => entry.bytes,
  // The buffer is a view into the whole handle's bytes: copied, so an entry does not keep them alive.
  unpack: (bytes: Uint8Array) => new PackedEntry(Buffer.from(bytes)),
} as never);

export type OperatorListMode = OperatorStateHandle['states'][string]['mode'];

/** One named list of operator state. */
export interface OperatorList {
  readonly mode: OperatorListMode;
  readonly entries: readonly unknown[];
}

export function encodeOperatorLists(lists: ReadonlyMap<string, OperatorList>): { bytes: Uint8Array; states: OperatorStateHandle['states'] } {
  const entries: Record<string, readonly unknown[]> = {};
  const states: Record<string, { mode: OperatorListMode }> = {};
  for (const [name, list] of lists) {
    entries[name] = list.entries;
    states[name] = { mode: list.mode };
  }
  return { bytes: packr.pack(entries), states };
}

/** The lists `states` names, from a handle's bytes; a string says why the bytes are not such a map. */
export function decodeOperatorLists(states: OperatorStateHandle['states'], bytes: Uint8Array): Map<string, OperatorList> | string {
  let value: unknown;
  try {
    value = unpackr.unpack(bytes);
  } catch (err) {
    return `its bytes are not MessagePack (${(err as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'its bytes are not a map of list name to entries';
  const lists = new Map<string, OperatorList>();
  for (const [name, { mode }] of Object.entries(states)) {
    const entries = (value as Record<string, unknown>)[name];
    if (!Array.isArray(entries)) return `it has no entries for list '${name}'`;
    lists.set(name, { mode, entries });
  }
  return lists;
}
