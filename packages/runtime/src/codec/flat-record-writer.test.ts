import { Packr, Unpackr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { FlatRecordWriter } from './flat-record-writer.ts';

const packr = new Packr({ moreTypes: true });
const unpackr = new Unpackr({ moreTypes: true });

/** The writer's bytes are msgpackr's, byte for byte (so they decode as msgpackr's do: a lone surrogate, which UTF-8 cannot hold, as U+FFFD). */
function expectMsgpackrBytes(records: unknown[]): void {
  const written = new FlatRecordWriter().encode(records);
  expect(written).toBeDefined();
  const expected = Buffer.from(packr.pack(records));
  expect(Buffer.from(written!).toString('hex')).toBe(expected.toString('hex'));
  expect(unpackr.unpack(Buffer.from(written!))).toEqual(unpackr.unpack(expected));
}

const NUMBERS = [
  0, 1, 0x3f, 0x40, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 2 ** 32 - 1, 2 ** 32, 2 ** 53, -1, -0x20, -0x21, -0x80, -0x81, -0x8000, -0x8001,
  -(2 ** 31), -(2 ** 31) - 1, 0.5, -1.25, 1e300, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MIN_VALUE,
];
const STRINGS = ['', 'a', 'user-1234', 'x'.repeat(31), 'x'.repeat(32), 'y'.repeat(300), 'z'.repeat(70_000), 'é', 'é'.repeat(20), '日本語', '😀', 'a\ud800b', 'ü'.repeat(200)];

describe('FlatRecordWriter', () => {
  it('writes flat records, several shapes interleaved, as msgpackr does', () => {
    expectMsgpackrBytes(Array.from({ length: 5000 }, (_, i) => ({ key: `user-${i % 10_000}`, amount: i % 100 })));
    expectMsgpackrBytes([{ a: 1 }, { b: 'x', a: 2 }, { a: 3 }, {}, { b: 'y', a: 4 }, {}, { 2: 'two', 1: 'one', x: true }]);
    expectMsgpackrBytes(NUMBERS.map((n) => ({ n })));
    expectMsgpackrBytes(STRINGS.map((s) => ({ s, [s]: null })));
    expectMsgpackrBytes([{ t: true, f: false, n: null }]);
  });

  it('writes records that are primitives, and arrays of every length header, as msgpackr does', () => {
    expectMsgpackrBytes([...NUMBERS, ...STRINGS, true, false, null]);
    expectMsgpackrBytes([]);
    expectMsgpackrBytes(Array.from({ length: 15 }, (_, i) => i));
    expectMsgpackrBytes(Array.from({ length: 16 }, (_, i) => i));
    expectMsgpackrBytes(Array.from({ length: 70_000 }, (_, i) => ({ i })));
  });

  it('writes up to 64 shapes in one array and leaves more to msgpackr', () => {
    const shapes = (n: number) => Array.from({ length: n }, (_, i) => ({ [`k${i}`]: i, v: i }));
    expectMsgpackrBytes([...shapes(64), ...shapes(64)]);
    expect(new FlatRecordWriter().encode(shapes(65))).toBeUndefined();
  });

  it('leaves to msgpackr what it does not write alike: nesting, -0, undefined, class instances, special keys', () => {
    class Point {
      x = 1;
    }
    const refused: unknown[] = [
      { a: { b: 1 } },
      { a: [1] },
      { a: -0 },
      -0,
      { a: undefined },
      undefined,
      new Point(),
      new Date(0),
      Object.create(null) as object,
      JSON.parse('{"__proto__": 1}'),
      { constructor: 1 },
      { hasOwnProperty: 1 },
      { a: 1n },
      [1, 2],
    ];
    const writer = new FlatRecordWriter();
    for (const record of refused) expect(writer.encode([{ before: 1 }, record])).toBeUndefined();
    // It is usable again after a refusal.
    expect(unpackr.unpack(Buffer.from(writer.encode([{ before: 1 }])!))).toEqual([{ before: 1 }]);
  });

  it('leaves everything to msgpackr while Object.prototype has an enumerable property', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 1;
    try {
      expect(new FlatRecordWriter().encode([{ a: 1 }])).toBeUndefined();
    } finally {
      delete proto.polluted;
    }
    expect(new FlatRecordWriter().encode([{ a: 1 }])).toBeDefined();
  });
});
