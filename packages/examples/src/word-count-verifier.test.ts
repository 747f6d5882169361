import { describe, expect, it } from 'vitest';
import { checkWordCount, countWords, splitWords } from './word-count-verifier.ts';

describe('word count verifier', () => {
  it('splits lower-cased runs of letters and digits', () => {
    expect(splitWords("It was the best--of times; 1775, Mrs. Southcott's")).toEqual(['it', 'was', 'the', 'best', 'of', 'times', '1775', 'mrs', 'southcott', 's']);
    expect(splitWords('  -- ')).toEqual([]);
  });

  it('counts words', () => {
    expect([...countWords('a b A\nb a')]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('accepts output whose largest count per word matches', () => {
    const check = checkWordCount('to be or not to be', ['to 1', 'be 1', 'or 1', 'not 1', 'to 2', 'be 2']);
    expect(check).toEqual({ words: 6, distinct: 4, differences: [] });
  });

  it('reports missing, wrong, extra and malformed results', () => {
    const check = checkWordCount('to be or not to be', ['to 1', 'be 2', 'be 1', 'or 3', 'maybe 1', 'garbage']);
    expect(check.differences).toEqual([
      'malformed output line "garbage": expected "<word> <count>"',
      'to: expected 2, got 1',
      'or: expected 1, got 3',
      'not: expected 1, got nothing',
      'maybe: expected nothing, got 1',
    ]);
  });
});
