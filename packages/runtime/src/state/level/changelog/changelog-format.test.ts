import { describe, expect, it } from 'vitest';
import { ChangelogEncoder, decodeChangelog } from './changelog-format.ts';

describe('changelog segments', () => {
  it('hold puts and deletes in the order written, and start over after each take', () => {
    const encoder = new ChangelogEncoder();
    expect(encoder.take()).toBeUndefined();
    encoder.put(Buffer.from([0, 3, 1]), Buffer.from('value'));
    encoder.del(Buffer.from([0, 7, 2]));
    // Bigger than the first buffer: it grows.
    encoder.put(Buffer.from([0, 3, 1]), Buffer.alloc(200_000, 9));
    const segment = encoder.take()!;
    expect([...decodeChangelog(segment)].map((op) => [op.type, [...op.key], op.type === 'put' ? op.value.byteLength : -1])).toEqual([
      ['put', [0, 3, 1], 5],
      ['del', [0, 7, 2], -1],
      ['put', [0, 3, 1], 200_000],
    ]);
    expect(encoder.take()).toBeUndefined();
    encoder.put(Buffer.from('k'), Buffer.from(''));
    expect([...decodeChangelog(encoder.take()!)]).toEqual([{ type: 'put', key: Buffer.from('k'), value: Buffer.from('') }]);
  });

  it('refuse bytes that are not a whole segment', () => {
    const encoder = new ChangelogEncoder();
    encoder.put(Buffer.from('key'), Buffer.from('value'));
    const segment = encoder.take()!;
    expect(() => [...decodeChangelog(segment.subarray(0, segment.byteLength - 2))]).toThrow(/ends inside a record/);
    expect(() => [...decodeChangelog(Buffer.from('nope'))]).toThrow(/not a changelog segment/);
  });
});
