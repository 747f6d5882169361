import { decodeOperatorLists, encodeOperatorLists, type OperatorList } from '@weir/common';
import { Packr } from 'msgpackr';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packListEntry, packState, unpackListEntry, unpackState } from './state-codec.ts';

/** Every kind of value a record keeps, nested the way users nest them. */
function rich(n: number): unknown {
  const bare: Record<string, unknown> = Object.create(null);
  bare.n = n;
  // eslint-disable-next-line no-sparse-arrays
  const holes = [n, , n + 1];
  return {
    byKey: new Map<unknown, unknown>([
      [n, new Set([n, `s${n}`])],
      ['nested', new Map([[{ id: n }, new Date(1_700_000_000_000 + n)]])],
    ]),
    tags: new Set(['a', 'b']),
    big: 2n ** 70n + BigInt(n),
    negativeZero: -0,
    holes,
    bytes: new Uint8Array([n, 2, 3]),
    buffer: Buffer.from([n]),
    bare,
    list: [new Map([['x', n]])],
  };
}

describe('state values keep their types', () => {
  it('round-trips Map, Set, BigInt over 64 bits, Date, -0, holes, Uint8Array apart from Buffer and prototype-less objects', () => {
    for (const n of [0, 7]) {
      const back = unpackState(packState(rich(n)));
      expect(isDeepStrictEqual(back, rich(n)), JSON.stringify(back, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toBe(true);
    }
  });

  it('writes a value without Maps or special values as plain MessagePack, and reads bytes written before Maps were wrapped as it always did', () => {
    const plain = { a: 1, b: ['x', 2.5], c: { d: null } };
    const legacy = new Packr({ useRecords: false });
    expect(Buffer.from(packState(plain))).toEqual(Buffer.from(legacy.pack(plain)));
    // A Map written by the old codec was a MessagePack map: it still reads as an object.
    expect(unpackState(legacy.pack(new Map([['k', 1]])))).toEqual({ k: 1 });
  });

  it('carries operator list entries through the JobManager re-encoding them unread', () => {
    const lists = new Map<string, OperatorList>([['pending', { mode: 'split', entries: [rich(1), rich(2)].map(packListEntry) }]]);
    const first = encodeOperatorLists(lists);
    // The JobManager decodes and re-encodes on a rescale (inlineOperatorLists): entries must survive unchanged.
    const redealt = decodeOperatorLists(first.states, first.bytes);
    if (typeof redealt === 'string') throw new Error(redealt);
    const second = encodeOperatorLists(redealt);
    const restored = decodeOperatorLists(second.states, second.bytes);
    if (typeof restored === 'string') throw new Error(restored);
    const entries = restored.get('pending')!.entries.map(unpackListEntry);
    expect(isDeepStrictEqual(entries, [rich(1), rich(2)])).toBe(true);
  });

  it('restores list entries of a checkpoint written before entries were packed as they are', () => {
    expect(unpackListEntry({ offset: 3 })).toEqual({ offset: 3 });
  });
});
