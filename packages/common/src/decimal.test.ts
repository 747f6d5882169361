import { describe, expect, it } from 'vitest';
import { decimalString, parseDecimal } from './decimal.ts';

describe('decimalString', () => {
  it('is String(n) for every number, at the edges of its fast path too', () => {
    const values = [0, -0, 1, -1, 0.5, -1.5, NaN, Infinity, -Infinity, 2 ** 30 - 1, 2 ** 30, 2 ** 31, 1e8, 1e9, 1e15, 1e16, 1e21, 1e21 + 1e6];
    values.push(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, Number.MAX_SAFE_INTEGER - 1, -Number.MAX_SAFE_INTEGER, 1_700_000_000_000.5);
    // Multiples of 1e8 and their neighbours, where the halves split.
    for (let k = 10; k < 90_000_000; k = Math.floor(k * 1.7) + 1) values.push(k * 1e8 - 1, k * 1e8, k * 1e8 + 1, k * 1e8 + 99_999_999, k * 1e8 + 100);
    for (let i = 0; i < 20_000; i++) values.push(1_700_000_000_000 + i * 7_919, Math.floor(Math.random() * Number.MAX_SAFE_INTEGER), Math.random() * 1e12);
    for (const n of values) expect(decimalString(n)).toBe(String(n));
  });
});

describe('parseDecimal', () => {
  it('is Number of the slice, for digits, signs, fractions, exponents and empty text alike', () => {
    const texts = ['', '0', '007', '-5', '+5', ' 5', '5 ', '1.5', '1e21', 'NaN', 'Infinity', '-Infinity', 'global', '0x10', '999999999999999', '9999999999999999', '1700000000000'];
    for (let i = 0; i < 5_000; i++) texts.push(String(Math.floor(Math.random() * 10 ** (1 + (i % 16)))), String(Math.random() * 1e13));
    for (const text of texts) {
      expect(parseDecimal(text, 0, text.length)).toBe(Number(text));
      const framed = `ab:${text}:cd`;
      expect(parseDecimal(framed, 3, 3 + text.length)).toBe(Number(text));
    }
  });
});
