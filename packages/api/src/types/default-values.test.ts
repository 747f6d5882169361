import { describe, expect, it } from 'vitest';
import { decodeDefault, defaultValueOf, encodeDefault } from './default-values.ts';
import { Types } from './types.ts';

describe('field defaults', () => {
  it('stores every kind of default as JSON and reads it back as the value it was', () => {
    const samples = [
      [Types.STRING, 'x'],
      [Types.NUMBER, -1.5],
      [Types.BOOLEAN, true],
      [Types.BIGINT, -(2n ** 70n)],
      [Types.BYTES, new Uint8Array([0, 1, 254])],
      [Types.LIST(Types.BIGINT), [1n]],
      [Types.MAP(Types.NUMBER, Types.BYTES), new Map([[1, new Uint8Array([7])]])],
      [Types.ROW({ a: Types.BIGINT, b: Types.LIST(Types.STRING) }), { a: 3n, b: ['q'] }],
      [Types.GENERIC(), { any: ['json', 1, null] }],
      [Types.AVRO({ type: 'map', values: 'int' }), { a: 1 }],
      [Types.CUSTOM({ name: 'P', version: 1 }), { x: 1 }],
    ] as const;
    for (const [type, value] of samples) {
      const stored = encodeDefault(type.describe(), value, 'the test');
      expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
      expect(decodeDefault(type.describe(), JSON.parse(JSON.stringify(stored)))).toEqual(value);
    }
  });

  it('gives each type its zero, fresh on every call', () => {
    const row = Types.ROW({ m: Types.MAP(Types.STRING, Types.NUMBER), inner: Types.ROW({ b: Types.BYTES }) }).describe();
    const first = defaultValueOf(row);
    expect(first).toEqual({ m: new Map(), inner: { b: new Uint8Array(0) } });
    expect(defaultValueOf(row)).not.toBe(first);
    expect(defaultValueOf(Types.AVRO({ type: 'enum', name: 'E', symbols: ['B', 'A'] }).describe())).toBe('B');
    expect(defaultValueOf(Types.AVRO(['null', 'int']).describe())).toBe(null);
    expect(defaultValueOf(Types.AVRO({ type: 'fixed', name: 'F', size: 2 }).describe())).toEqual(Buffer.alloc(2));
  });
});
