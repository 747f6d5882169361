import type { LevelCanonicalSnapshot } from '../../state/keyed-state-backend.ts';
import { fullSnapshotFilter } from '../../state/ttl-states.ts';
import { parseStateKey } from '../../state/level/level-key.ts';
import { unpackState } from '../state-codec.ts';
import { CanonicalKeyedWriter } from './canonical-writer.ts';

/** Entries read from the DB per step. */
const READ_BATCH = 2048;

/**
 * The asynchronous part of a LevelDB savepoint: the DB snapshot's entries, in key order
 * (key group, state name, key), into the canonical format. Stored values already are in the
 * encoded form the canonical format holds (map state as [userKey, value] pairs). Values of
 * TTL states with cleanupFullSnapshot that expired by the synchronous part are left out.
 */
export async function serializeLevelCanonical(snapshot: LevelCanonicalSnapshot): Promise<{ bytes: Uint8Array; offsets: number[] }> {
  const { keyGroupRange: range, cursor, states, capturedAt } = snapshot;
  const writer = new CanonicalKeyedWriter(range);
  const filters = new Map<string, ((encoded: unknown) => unknown) | undefined>();
  try {
    for (let entries = await cursor.nextv(READ_BATCH); entries.length !== 0; entries = await cursor.nextv(READ_BATCH)) {
      for (const [key, value] of entries) {
        const parsed = parseStateKey(key);
        if (!filters.has(parsed.name)) filters.set(parsed.name, states[parsed.name] === undefined ? undefined : fullSnapshotFilter(states[parsed.name]!, capturedAt));
        const filter = filters.get(parsed.name);
        const encoded = filter === undefined ? unpackState(value) : filter(unpackState(value));
        if (encoded !== undefined) writer.add(parsed.keyGroup, parsed.name, unpackState(parsed.serializedKey), encoded);
      }
    }
  } finally {
    await cursor.close();
  }
  return writer.finish();
}
