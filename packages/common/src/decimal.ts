/**
 * `String(n)`, faster for the integers above the small-integer range that event time is made
 * of (ms timestamps, about 1.7e12): V8 converts those through its slow double-to-string path
 * (over a microsecond under load), while the two halves below 1e8 each convert as small
 * integers. Window and timer namespaces build such strings per record.
 */
export function decimalString(n: number): string {
  // Below 2^30 the number is a small integer V8 converts fast; unsafe or fractional ones go the usual way.
  if (!(n >= 0x40000000 && n <= Number.MAX_SAFE_INTEGER) || !Number.isInteger(n)) return String(n);
  let high = Math.floor(n / 1e8);
  let low = n - high * 1e8;
  // n / 1e8 may round up to the next integer (or down): the exact remainder puts it right.
  if (low < 0) {
    high--;
    low += 1e8;
  } else if (low >= 1e8) {
    high++;
    low -= 1e8;
  }
  const lowDigits = String(low);
  return String(high) + (lowDigits.length === 8 ? lowDigits : ZEROS.slice(lowDigits.length) + lowDigits);
}

const ZEROS = '00000000';

/**
 * `Number(text.slice(start, end))`, without the slice and V8's general string-to-number path
 * for what `decimalString` wrote of a timestamp: up to 15 decimal digits (always exact).
 */
export function parseDecimal(text: string, start: number, end: number): number {
  if (end <= start || end - start > 15) return Number(text.slice(start, end));
  let n = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(text.slice(start, end));
    n = n * 10 + digit;
  }
  return n;
}
