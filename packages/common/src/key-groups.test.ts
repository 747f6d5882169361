import { describe, expect, it } from 'vitest';
import {
  defaultMaxParallelism,
  hashKey,
  keyGroupForKey,
  keyGroupRangeForSubtask,
  murmur3,
  subtaskForKeyGroup,
} from './key-groups.ts';

describe('murmur3', () => {
  it('matches the reference vectors of murmur3_32 with seed 0', () => {
    expect(murmur3(new Uint8Array())).toBe(0);
    expect(murmur3(Buffer.from('hello', 'utf8'))).toBe(0x248bfa47);
    expect(murmur3(Buffer.from('The quick brown fox jumps over the lazy dog', 'utf8'))).toBe(0x2e4ff723);
  });

  it('hashes a string the same as its UTF-8 bytes, ASCII or not', () => {
    for (const s of ['', 'a', 'ab', 'abc', 'word', 'abcde', 'user-1234', 'abcdé', 'héllo wörld', '日本語', 'x'.repeat(5000)]) {
      expect(hashKey(s)).toBe(murmur3(Buffer.from(s, 'utf8')));
    }
  });

  it('hashes a number as its float64 bytes, -0 as 0', () => {
    const bytes = Buffer.alloc(8);
    for (const n of [1, -1, 0.5, 1e300, NaN, Number.MAX_SAFE_INTEGER]) {
      bytes.writeDoubleLE(n, 0);
      expect(hashKey(n)).toBe(murmur3(bytes));
    }
    expect(hashKey(-0)).toBe(hashKey(0));
  });

  it('keeps the hashes and key groups of number keys that savepoints hold (pinned values)', () => {
    const keys = [0, 1, 2, 42, -1, 0.5, 1e300, 2 ** 53 - 1, -(2 ** 31), 123456789, NaN, Infinity];
    // [hashKey, key group at max parallelism 128, at 1000], computed before number keys were hashed from a Float64Array view.
    const pinned = [
      [1669671676, 124, 676], [4152582287, 15, 287], [3145138138, 90, 138], [244275329, 1, 329], [3800686449, 113, 449], [2677528480, 32, 480],
      [2093100220, 60, 220], [3279583865, 121, 865], [3674968065, 1, 65], [2785221071, 79, 71], [1428788237, 13, 237], [420913893, 101, 893],
    ];
    expect(keys.map((k) => [hashKey(k), keyGroupForKey(k, 128), keyGroupForKey(k, 1000)])).toEqual(pinned);
    expect(keyGroupForKey(-0, 128)).toBe(124);
  });

  it('hashes equal object keys equally whatever their field order', () => {
    expect(hashKey({ a: 1, b: 'x' })).toBe(hashKey({ b: 'x', a: 1 }));
    expect(hashKey([1, 2])).not.toBe(hashKey([2, 1]));
  });
});

describe('key group assignment', () => {
  it('gives every key group to exactly the subtask whose range holds it', () => {
    for (const [maxP, p] of [
      [128, 1],
      [128, 2],
      [128, 3],
      [128, 7],
      [1000, 13],
    ] as const) {
      let expectedStart = 0;
      for (let i = 0; i < p; i++) {
        const range = keyGroupRangeForSubtask(maxP, p, i);
        expect(range.start).toBe(expectedStart);
        for (let g = range.start; g <= range.end; g++) expect(subtaskForKeyGroup(maxP, p, g)).toBe(i);
        expectedStart = range.end + 1;
      }
      expect(expectedStart).toBe(maxP);
    }
  });

  it('uses Flink default max parallelism', () => {
    expect(defaultMaxParallelism(1)).toBe(128);
    expect(defaultMaxParallelism(100)).toBe(256);
    expect(defaultMaxParallelism(30000)).toBe(32768);
  });

  it('is the unsigned hash modulo max parallelism, for hashes above 2^31 too', () => {
    const keys: unknown[] = [-0, 1.5, true, 12345678901234567890n, { a: [1, 'x'] }, 'héllo'];
    for (let i = 0; i < 2000; i++) keys.push(`user-${i}`, i);
    let high = 0;
    for (const key of keys) {
      if (hashKey(key) >= 2 ** 31) high++;
      for (const maxP of [1, 2, 3, 128, 1000, 4096, 32768]) expect(keyGroupForKey(key, maxP)).toBe(hashKey(key) % maxP);
    }
    expect(high).toBeGreaterThan(100);
  });

  it('keeps key groups within max parallelism', () => {
    for (let i = 0; i < 1000; i++) {
      const g = keyGroupForKey(`k${i}`, 128);
      expect(g).toBeGreaterThanOrEqual(0);
      expect(g).toBeLessThan(128);
    }
  });
});
