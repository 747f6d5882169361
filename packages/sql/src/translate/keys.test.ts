import { describe, expect, it } from 'vitest';
import { fieldsKey, keyString } from './keys.ts';

/** What keyString wrote before it was written out: keys in savepoints and key groups depend on it staying the same. */
const before = (values: readonly unknown[]): string => JSON.stringify(values, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

describe('keyString', () => {
  it('writes exactly what JSON.stringify with bigints as "12n" writes', () => {
    const cases: unknown[][] = [
      [],
      [1],
      [-0, 0.1, 1e21, 1e-7, -12.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53],
      ['a', 'quote " and \\ and \n and \u2028', ''],
      [true, false, null, undefined],
      [1234n, -5n, 0n],
      [[1, 'x', 3n, null], { a: 1 }, new Date(0)],
    ];
    for (const values of cases) expect(keyString(values)).toBe(before(values));
  });

  it("keys a row by some of its fields as keyString of those fields would, a missing one as NULL", () => {
    const fields = [1, 'a', 5n, null, 2.5];
    for (const indexes of [[0], [2], [3], [7], [1, 4], [4, 1, 2, 9]]) expect(fieldsKey(indexes)(fields)).toBe(keyString(indexes.map((i) => fields[i] ?? null)));
  });
});
