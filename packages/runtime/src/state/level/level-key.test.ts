import { describe, expect, it } from 'vitest';
import { packState } from '../../checkpoint/state-codec.ts';
import { packedKeyLatin1 } from './level-key.ts';

describe('packedKeyLatin1', () => {
  it('is the latin1 of packState for every kind of key', () => {
    const keys: unknown[] = [
      0, 1, 31, 32, 127, 128, 255, 256, 65_535, 65_536, 2 ** 32 - 1, 2 ** 32, -1, -32, -33, -128, -129, -(2 ** 31), 1.5, -0.25, Number.MAX_SAFE_INTEGER,
      '', 'a', 'user-1234', 'x'.repeat(31), 'x'.repeat(32), 'x'.repeat(300), 'Über', '日本', '\u0000{"a":1}', true, false, 12n, null,
    ];
    for (const key of keys) {
      const packed = packState(key);
      expect(packedKeyLatin1(key, packState), String(key)).toBe(Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength).toString('latin1'));
    }
  });
});
