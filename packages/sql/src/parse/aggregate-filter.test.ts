import { describe, expect, it } from 'vitest';
import { rewriteAggregateFilters } from './aggregate-filter.ts';

describe('rewriteAggregateFilters', () => {
  it("rewrites Flink's agg(..) FILTER (WHERE ..) to the aggregate of a CASE, which skips the rows as NULLs", () => {
    expect(rewriteAggregateFilters('SELECT count(*) filter (where price < 10000) AS a, SUM(x) FILTER (WHERE (y > 1) AND z) FROM t')).toBe(
      'SELECT count(CASE WHEN price < 10000 THEN 1 END) AS a, SUM(CASE WHEN (y > 1) AND z THEN x END) FROM t',
    );
    expect(rewriteAggregateFilters('SELECT count(distinct bidder) filter (where price >= 10000 and price < 1000000) FROM bid')).toBe(
      'SELECT count(DISTINCT CASE WHEN price >= 10000 and price < 1000000 THEN bidder END) FROM bid',
    );
  });

  it('leaves text without FILTER, and FILTER inside a string, alone', () => {
    const sql = "SELECT COUNT(*), 'x) filter (where y' FROM t";
    expect(rewriteAggregateFilters(sql)).toBe(sql);
    expect(rewriteAggregateFilters('SELECT a FROM t')).toBe('SELECT a FROM t');
  });
});
