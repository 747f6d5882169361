import type { KeyGroupRange } from '@weir/common';
import type { EntryCursor } from '../../state/keyed-state-backend.ts';
import { parseStateKey } from '../../state/level/level-key.ts';
import { unpackState } from '../state-codec.ts';
import { CanonicalKeyedWriter } from './canonical-writer.ts';

/** Entries read from the DB per step. */
const READ_BATCH = 2048;

/**
 * The asynchronous part of a LevelDB savepoint: the DB snapshot's entries, in key order
 * (key group, state name, key), into the canonical format. Stored values already are in the
 * encoded form the canonical format holds (map state as [userKey, value] pairs).
 */
export async function serializeLevelCanonical(range: KeyGroupRange, cursor: EntryCursor): Promise<{ bytes: Uint8Array; offsets: number[] }> {
  const writer = new CanonicalKeyedWriter(range);
  try {
    for (let entries = await cursor.nextv(READ_BATCH); entries.length !== 0; entries = await cursor.nextv(READ_BATCH)) {
      for (const [key, value] of entries) {
        const parsed = parseStateKey(key);
        writer.add(parsed.keyGroup, parsed.name, unpackState(parsed.serializedKey), unpackState(value));
      }
    }
  } finally {
    await cursor.close();
  }
  return writer.finish();
}
