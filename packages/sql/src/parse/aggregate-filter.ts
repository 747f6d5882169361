/**
 * Flink's `agg(args) FILTER (WHERE cond)` does not parse with dt-sql-parser 4.5.1 ("'filter'
 * is not valid at this position"), and Nexmark's q15-q17 use it. Before parsing, each is
 * rewritten to the aggregate of a CASE, which computes the same, since aggregates skip NULLs:
 * `COUNT(*) FILTER (WHERE c)` → `COUNT(CASE WHEN c THEN 1 END)`, `SUM(x) FILTER (WHERE c)` →
 * `SUM(CASE WHEN c THEN x END)`, `COUNT(DISTINCT x) FILTER (WHERE c)` → `COUNT(DISTINCT CASE
 * WHEN c THEN x END)`. Columns after a rewrite on its line shift in error positions.
 */
export function rewriteAggregateFilters(sql: string): string {
  if (!/\bFILTER\s*\(\s*WHERE\b/i.test(sql)) return sql;
  const pairs = matchingParentheses(sql);
  const filters = [...sql.matchAll(/\)(\s*)FILTER\s*\(\s*WHERE\b/gi)].filter((m) => pairs.has(m.index) && !inQuotes(sql, m.index));
  let out = sql;
  // From the last one back, so earlier indices stay valid.
  for (const m of filters.reverse()) {
    const close = m.index;
    const open = pairs.get(close)!;
    const filterOpen = sql.indexOf('(', close + 1 + m[1]!.length);
    const filterClose = pairs.get(filterOpen);
    if (filterClose === undefined) continue;
    const condition = sql.slice(sql.slice(filterOpen).search(/WHERE/i) + filterOpen + 'WHERE'.length, filterClose).trim();
    const args = sql.slice(open + 1, close).trim();
    const distinct = /^DISTINCT\s+/i.exec(args);
    const value = args === '*' ? '1' : distinct === null ? args : args.slice(distinct[0].length);
    const replacement = `(${distinct === null ? '' : 'DISTINCT '}CASE WHEN ${condition} THEN ${value} END)`;
    out = out.slice(0, open) + replacement + out.slice(filterClose + 1);
  }
  return out;
}

/** Each parenthesis's partner (both ways), outside string literals and backquoted names. */
function matchingParentheses(sql: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '`') {
      quote = ch;
    } else if (ch === '(') {
      stack.push(i);
    } else if (ch === ')' && stack.length > 0) {
      const open = stack.pop()!;
      pairs.set(open, i);
      pairs.set(i, open);
    }
  }
  return pairs;
}

function inQuotes(sql: string, index: number): boolean {
  let quote: string | undefined;
  for (let i = 0; i < index; i++) {
    const ch = sql[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '`') quote = ch;
  }
  return quote !== undefined;
}
