/** The lines the running-sums example must commit for `count` events, sorted: exactly these, once each. */
export function expectedRunningSums(count: number): string[] {
  const sums = new Map<string, number>();
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const key = `${index < count / 2 ? 'a' : 'b'}${index % 7}`;
    const next = (sums.get(key) ?? 0) + index;
    sums.set(key, next);
    lines.push(`${key} ${index} ${next}`);
  }
  return lines.sort();
}

/** What differs between committed and expected lines (both sorted): missing and duplicated or unexpected lines. */
export function diffLines(committed: readonly string[], expected: readonly string[]): { missing: string[]; extra: string[] } {
  const counts = new Map<string, number>();
  for (const line of expected) counts.set(line, (counts.get(line) ?? 0) + 1);
  const extra: string[] = [];
  for (const line of committed) {
    const left = counts.get(line) ?? 0;
    if (left === 0) extra.push(line);
    else counts.set(line, left - 1);
  }
  const missing = [...counts].flatMap(([line, n]) => Array.from({ length: n }, () => line));
  return { missing, extra };
}
