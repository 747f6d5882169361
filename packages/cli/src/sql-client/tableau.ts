/** A result as Flink's SQL client prints it in tableau mode: a box of columns, then "N rows in set". */
export function tableau(columns: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  return [rule, line(columns), rule, ...rows.map(line), rule, `${rows.length} row${rows.length === 1 ? '' : 's'} in set`];
}
