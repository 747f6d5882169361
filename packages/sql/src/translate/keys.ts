/** Values as one string: keyed state and key groups hash it the same in every run, and bigints (DECIMAL) survive. */
export function keyString(values: readonly unknown[]): string {
  return JSON.stringify(values, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}
