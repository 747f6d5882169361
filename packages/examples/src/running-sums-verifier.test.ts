import { describe, expect, it } from 'vitest';
import { keyOf } from '../jobs/running-sums.ts';
import { diffLines, expectedRunningSums } from './running-sums-verifier.ts';

describe('running sums verifier', () => {
  it('computes per-key running sums with the keys the job uses', () => {
    const lines = expectedRunningSums(20);
    expect(lines).toHaveLength(20);
    expect(lines).toContain('a0 7 7');
    expect(lines).toContain('b3 17 27');
    expect(keyOf(17, 20)).toBe('b3');
  });

  it('finds missing and duplicated lines', () => {
    expect(diffLines(['a 1', 'a 1', 'b 2'], ['a 1', 'c 3'])).toEqual({ missing: ['c 3'], extra: ['a 1', 'b 2'] });
    expect(diffLines(['x'], ['x'])).toEqual({ missing: [], extra: [] });
  });
});
