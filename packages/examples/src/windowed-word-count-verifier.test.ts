import { describe, expect, it } from 'vitest';
import { isStraggler, OUT_OF_ORDERNESS_MS, word } from '../jobs/windowed-word-count.ts';
import { expectedWindowedCounts } from './windowed-word-count-verifier.ts';

describe('expectedWindowedCounts', () => {
  it('counts every on-time word once, in its 5 s window, and lists each straggler as late', () => {
    const lines = expectedWindowedCounts(5_000);
    const counted = lines.filter((l) => !l.startsWith('late ')).reduce((sum, l) => sum + Number(l.split(' ')[2]), 0);
    const late = lines.filter((l) => l.startsWith('late '));
    // 2991, 3988 and 4985.
    expect(late).toHaveLength(3);
    expect(late[0]).toMatch(/^late 2020-12-31T23:59:\d\d\.\d{3}Z \w+$/);
    expect(counted + late.length).toBe(5_000);
    // Out of order by up to 2 s: the first words fall into the window before 00:00.
    expect(lines[0]).toMatch(/^2020-12-31T23:59:55\.000Z \w+ \d+$/);
  });

  it('generates words out of order, but within the strategy\'s bound except for the stragglers', () => {
    let max = Number.NEGATIVE_INFINITY;
    let outOfOrder = 0;
    for (let i = 0; i < 5_000; i++) {
      const t = word(i).time;
      if (t < max) outOfOrder++;
      if (!isStraggler(i)) expect(max - t).toBeLessThan(OUT_OF_ORDERNESS_MS);
      max = Math.max(max, t);
    }
    expect(outOfOrder).toBeGreaterThan(1_000);
  });
});
