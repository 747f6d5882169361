import { describe, expect, it } from 'vitest';
import { durationText, parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it.each([
    ['250', 250],
    ['0', 0],
    ['500ms', 500],
    ['10s', 10_000],
    ['1.5s', 1_500],
    ['2min', 120_000],
    ['1h', 3_600_000],
    [' 10 s ', 10_000],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'abc', '-5', '10m', '5 sec', '1.5', '0.0001s', 's', '10s5'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('durationText', () => {
  it('writes the largest whole unit', () => {
    expect([0, 250, 1_500, 30_000, 120_000, 3_600_000].map(durationText)).toEqual(['0ms', '250ms', '1500ms', '30s', '2min', '1h']);
  });
});
