/** The final sums generator-sum must produce for `count`: key k gets the sum of every n < count with n mod 10 = k. */
export function expectedGeneratorSums(count: number): Map<number, number> {
  const sums = new Map<number, number>();
  for (let n = 0; n < count; n++) sums.set(n % 10, (sums.get(n % 10) ?? 0) + n);
  return sums;
}

/** The largest sum emitted per key in generator-sum's "<key> <sum>" output lines. */
export function finalGeneratorSums(lines: readonly string[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const line of lines) {
    const [key, sum] = line.split(' ').map(Number) as [number, number];
    sums.set(key, Math.max(sums.get(key) ?? 0, sum));
  }
  return sums;
}
