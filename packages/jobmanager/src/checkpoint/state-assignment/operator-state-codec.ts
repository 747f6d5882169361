import type { OperatorStateHandle, StreamStateHandle } from '@weir/common';
import { Packr, Unpackr } from 'msgpackr';

/**
 * The bytes of an OperatorStateHandle as the runtime writes them (its
 * operator-state-serializer): one MessagePack map of list name to entries, with the settings
 * state travels with (plain maps, no shared record structures). Re-encoding decoded entries
 * with the same settings restores the same values on the task, so the JobManager can deal
 * lists out to a new parallelism without knowing what is in them.
 */
const packr = new Packr({ useRecords: false });
const unpackr = new Unpackr({ useRecords: false });

export type ListMode = OperatorStateHandle['states'][string]['mode'];

/** One named list of operator state. */
export interface OperatorList {
  readonly mode: ListMode;
  readonly entries: readonly unknown[];
}

/** The lists of one handle; a string says why its bytes are not such a map. */
export function decodeOperatorLists(handle: OperatorStateHandle, bytes: Uint8Array): Map<string, OperatorList> | string {
  let value: unknown;
  try {
    value = unpackr.unpack(bytes);
  } catch (err) {
    return `its bytes are not MessagePack (${(err as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'its bytes are not a map of list name to entries';
  const lists = new Map<string, OperatorList>();
  for (const [name, { mode }] of Object.entries(handle.states)) {
    const entries = (value as Record<string, unknown>)[name];
    if (!Array.isArray(entries)) return `it has no entries for list '${name}'`;
    lists.set(name, { mode, entries });
  }
  return lists;
}

/** A handle holding `lists`, inline: redistributed operator state is small and has no file of its own. */
export function encodeOperatorLists(lists: ReadonlyMap<string, OperatorList>): OperatorStateHandle {
  const entries: Record<string, readonly unknown[]> = {};
  const states: Record<string, { mode: ListMode }> = {};
  for (const [name, list] of lists) {
    entries[name] = list.entries;
    states[name] = { mode: list.mode };
  }
  const bytes = packr.pack(entries);
  const handle: StreamStateHandle = { kind: 'inline', data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), size: bytes.byteLength };
  return { handle, states };
}
