/** A record of the shuffle benchmark, made from its index exactly as the Weir job makes it. */
export interface ShuffleRecord {
  readonly key: string;
  readonly amount: number;
}

export function makeRecord(i: number, keys: number): ShuffleRecord {
  return { key: 'user-' + (i % keys), amount: i % 100 };
}

/** FNV-1a over the key's UTF-16 code units: the cheap hash a hand-written router would use. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The count each key must end with: how many of 0..records-1 are congruent to it mod keys. */
export function expectedCount(keyIndex: number, records: number, keys: number): number {
  return Math.floor(records / keys) + (keyIndex < records % keys ? 1 : 0);
}

/**
 * Checks the consumers' counts: every key counted by exactly one consumer, with exactly its
 * expected count, and nothing else. Throws naming the first wrong key.
 */
export function checkCounts(perConsumer: ReadonlyArray<ReadonlyArray<readonly [string, number]>>, records: number, keys: number): void {
  const seen = new Map<string, number>();
  for (const counts of perConsumer) {
    for (const [key, count] of counts) {
      if (seen.has(key)) throw new Error(`the hand-written shuffle counted key ${key} in two consumers`);
      seen.set(key, count);
    }
  }
  for (let k = 0; k < Math.min(keys, records); k++) {
    const key = `user-${k}`;
    const expected = expectedCount(k, records, keys);
    if (seen.get(key) !== expected) throw new Error(`the hand-written shuffle counted ${seen.get(key) ?? 0} records of ${key}, expected ${expected}`);
    seen.delete(key);
  }
  if (seen.size > 0) throw new Error(`the hand-written shuffle counted keys that were never produced: ${[...seen.keys()].slice(0, 3).join(', ')}`);
}
