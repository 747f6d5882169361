import type { StateMetaInfo } from '@weir/common';
import type { KeyedSnapshot } from '../../state/keyed-state-backend.ts';
import { encodeStateValue, packState } from '../state-codec.ts';

/** Entries per MessagePack chunk: a key group is written as a sequence of `[stateName, [key, value, key, value...]]` chunks. */
const CHUNK_ENTRIES = 1024;
/** Serialized entries between two turns of the event loop, so records keep flowing while big state is written. */
const YIELD_EVERY_ENTRIES = 16 * 1024;

export interface SerializedKeyedState {
  readonly bytes: Uint8Array;
  /** Start of each key group of the range inside `bytes`. */
  readonly offsets: number[];
  readonly states: Record<string, StateMetaInfo>;
}

/**
 * The asynchronous part for keyed state: writes the snapshot's Maps key group by key group,
 * recording where each group starts, so a restore (at any parallelism) reads only its groups.
 * The Maps are the copy-on-write views of the synchronous part: nothing changes them meanwhile.
 */
export async function serializeKeyedState(snapshot: KeyedSnapshot): Promise<SerializedKeyedState> {
  const { keyGroupRange, states } = snapshot;
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  let sinceYield = 0;
  const written = async (entries: number): Promise<void> => {
    sinceYield += entries;
    if (sinceYield < YIELD_EVERY_ENTRIES) return;
    sinceYield = 0;
    // The Maps are the snapshot's own (copy-on-write), so iterating on after a turn is safe.
    await new Promise((resolve) => setImmediate(resolve));
  };
  const groupCount = keyGroupRange.end - keyGroupRange.start + 1;
  for (let group = 0; group < groupCount; group++) {
    offsets.push(size);
    for (const state of states) {
      const entries = state.groups[group];
      if (entries === undefined || entries.size === 0) continue;
      let flat: unknown[] = [];
      for (const [key, value] of entries) {
        flat.push(key, encodeStateValue(state.meta.kind, value));
        if (flat.length !== CHUNK_ENTRIES * 2) continue;
        size += push(chunks, packState([state.name, flat]));
        flat = [];
        await written(CHUNK_ENTRIES);
      }
      if (flat.length === 0) continue;
      size += push(chunks, packState([state.name, flat]));
      await written(flat.length / 2);
    }
  }
  const described: Record<string, StateMetaInfo> = {};
  for (const state of states) described[state.name] = state.meta;
  return { bytes: concat(chunks, size), offsets, states: described };
}

function push(chunks: Uint8Array[], chunk: Uint8Array): number {
  chunks.push(chunk);
  return chunk.byteLength;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
