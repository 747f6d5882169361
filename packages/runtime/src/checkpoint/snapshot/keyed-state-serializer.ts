import type { StateMetaInfo } from '@weir/common';
import type { KeyedSnapshot } from '../../state/keyed-state-backend.ts';
import { encodeStateValue } from '../state-codec.ts';
import { CanonicalKeyedWriter } from './canonical-writer.ts';
import { fullSnapshotFilter } from '../../state/ttl-states.ts';

/** Completed chunks between two turns of the event loop, so records keep flowing while big state is written. */
const YIELD_EVERY_CHUNKS = 16;

export interface SerializedKeyedState {
  readonly bytes: Uint8Array;
  /** Start of each key group of the range inside `bytes`. */
  readonly offsets: number[];
  readonly states: Record<string, StateMetaInfo>;
}

/**
 * The asynchronous part for heap keyed state: writes the snapshot's Maps in the canonical
 * format. The Maps are the copy-on-write views of the synchronous part: nothing changes them
 * meanwhile, so iterating on after a turn of the event loop is safe. Values of TTL states
 * with cleanupFullSnapshot that expired by the synchronous part are left out.
 */
export async function serializeKeyedState(snapshot: KeyedSnapshot): Promise<SerializedKeyedState> {
  const { keyGroupRange, states } = snapshot;
  const writer = new CanonicalKeyedWriter(keyGroupRange);
  let chunks = 0;
  const groupCount = keyGroupRange.end - keyGroupRange.start + 1;
  const filters = states.map((state) => fullSnapshotFilter(state.meta, snapshot.capturedAt));
  for (let group = 0; group < groupCount; group++) {
    for (let s = 0; s < states.length; s++) {
      const state = states[s]!;
      const entries = state.groups[group];
      if (entries === undefined) continue;
      const filter = filters[s];
      for (const [key, value] of entries) {
        let encoded = encodeStateValue(state.meta.kind, value);
        if (filter !== undefined && (encoded = filter(encoded)) === undefined) continue;
        if (!writer.add(keyGroupRange.start + group, state.name, key, encoded)) continue;
        if (++chunks % YIELD_EVERY_CHUNKS === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
  const { bytes, offsets } = writer.finish();
  const described: Record<string, StateMetaInfo> = {};
  for (const state of states) described[state.name] = state.meta;
  return { bytes, offsets, states: described };
}
