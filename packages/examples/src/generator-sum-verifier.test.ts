import { describe, expect, it } from 'vitest';
import { expectedGeneratorSums, finalGeneratorSums } from './generator-sum-verifier.ts';

describe('generator-sum verifier', () => {
  it('sums the numbers below count per key n mod 10', () => {
    expect([...expectedGeneratorSums(23)].sort((a, b) => a[0] - b[0])).toEqual([
      [0, 0 + 10 + 20],
      [1, 1 + 11 + 21],
      [2, 2 + 12 + 22],
      [3, 3 + 13],
      [4, 4 + 14],
      [5, 5 + 15],
      [6, 6 + 16],
      [7, 7 + 17],
      [8, 8 + 18],
      [9, 9 + 19],
    ]);
  });

  it('takes the largest emitted sum per key', () => {
    expect([...finalGeneratorSums(['1 1', '2 2', '1 12', '2 14', '1 33'])]).toEqual([
      [1, 33],
      [2, 14],
    ]);
  });
});
