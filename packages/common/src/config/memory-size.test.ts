import { describe, expect, it } from 'vitest';
import { memorySizeText, parseMemorySize } from './memory-size.ts';

describe('parseMemorySize', () => {
  it.each([
    ['4096', 4_096],
    ['100b', 100],
    ['64mb', 64 * 1_024 ** 2],
    ['64 MB', 64 * 1_024 ** 2],
    ['512m', 512 * 1_024 ** 2],
    ['1.5kb', 1_536],
    ['2g', 2 * 1_024 ** 3],
  ])('reads %j as %d bytes', (text, bytes) => {
    expect(parseMemorySize(text)).toBe(bytes);
  });

  it.each(['', 'lots', '-1mb', '1.3b', '10 tb', 'mb'])('refuses %j', (text) => {
    expect(parseMemorySize(text)).toBeUndefined();
  });
});

describe('memorySizeText', () => {
  it('writes the largest whole unit', () => {
    expect([0, 100, 1_536, 64 * 1_024 ** 2, 2 * 1_024 ** 3].map(memorySizeText)).toEqual(['0b', '100b', '1536b', '64mb', '2gb']);
  });
});
