import { describe, expect, it } from 'vitest';
import { buildStreamGraph, DEFAULT_ENVIRONMENT, operatorsWithoutUid, StreamExecutionEnvironment } from '@weir/api';
import { isWeirError } from '@weir/common';
import { SqlErrorCode } from './errors.ts';
import { StreamTableEnvironment } from './table-environment.ts';

const TABLES = [
  `CREATE TABLE orders (id BIGINT, k INT, amount INT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
     WITH ('connector' = 'datagen', 'number-of-rows' = '10')`,
  `CREATE TABLE shipments (oid BIGINT, k INT, ts AS TO_TIMESTAMP_LTZ(oid * 10, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
     WITH ('connector' = 'datagen', 'number-of-rows' = '10')`,
  "CREATE TABLE users (k INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '10')",
  "CREATE TABLE files (a BIGINT, b INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-sql-planner-unit', 'format' = 'csv')",
];

function tEnv(): StreamTableEnvironment {
  const env = StreamTableEnvironment.create(new StreamExecutionEnvironment());
  for (const ddl of TABLES) env.executeSql(ddl);
  return env;
}

/** The optimized physical plan's lines of EXPLAIN, without the abstract syntax tree. */
function physical(query: string): string[] {
  const text = tEnv().sqlQuery(query).explain();
  return text.slice(text.indexOf('== Optimized Physical Plan ==')).trim().split('\n').slice(1).map((l) => l.trim());
}

function errorOf(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('planning joins, unions, DISTINCT and Top-N', () => {
  it('an inner equi-join of appends appends; an outer join retracts; the rest of ON is a residual predicate', () => {
    expect(physical('SELECT o.id, u.name FROM orders AS o JOIN users AS u ON o.k = u.k AND o.amount > 10')[1]).toBe(
      'Join(joinType=[InnerJoin], where=[AND(=(k, k0), >(amount, 10))], select=[id, k, amount, ts, k0, name], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey]), changelogMode=[I]',
    );
    expect(physical('SELECT o.id, u.name FROM orders o LEFT JOIN users u ON o.k = u.k')[1]).toMatch(/^Join\(joinType=\[LeftOuterJoin\].*changelogMode=\[I,UB,UA,D\]$/);
    const planned = tEnv().sqlQuery('SELECT o.id, u.name FROM orders o FULL JOIN users u ON o.k = u.k').getResolvedSchema();
    expect(planned.map((c) => `${c.name} ${c.type}`)).toEqual(['id BIGINT', 'name STRING']);
  });

  it('a comma join takes its equality from WHERE; time bounds on both rowtimes make an interval join (insert-only)', () => {
    expect(physical('SELECT o.id FROM orders o, users u WHERE o.k = u.k AND u.name <> \'x\'')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Join\(joinType=\[InnerJoin\], where=\[=\(k, k0\)\]/), expect.stringMatching(/^Calc\(select=\[id\], where=\[<>\(name, _UTF-16LE'x'\)\]\)/)]),
    );
    const interval = physical("SELECT o.id, s.oid FROM orders o JOIN shipments s ON o.k = s.k AND o.ts BETWEEN s.ts - INTERVAL '4' SECOND AND s.ts + INTERVAL '1' SECOND");
    expect(interval[1]).toMatch(/^IntervalJoin\(joinType=\[InnerJoin\], windowBounds=\[isRowTime=true, leftLowerBound=-4000, leftUpperBound=1000, leftTimeIndex=3, rightTimeIndex=2\].*changelogMode=\[I\]$/);
    // Outer interval joins pad once, when a row can meet nothing more: insert-only, so an append-only sink takes them.
    const outer = physical("SELECT o.id, s.oid FROM orders o LEFT JOIN shipments s ON o.k = s.k AND o.ts BETWEEN s.ts - INTERVAL '4' SECOND AND s.ts");
    expect(outer[1]).toMatch(/^IntervalJoin\(joinType=\[LeftOuterJoin\], .*changelogMode=\[I\]$/);
    tEnv().executeSql("INSERT INTO files SELECT o.id, s.k FROM orders o FULL JOIN shipments s ON o.k = s.k AND o.ts BETWEEN s.ts - INTERVAL '4' SECOND AND s.ts");
    // Without equal keys, the bounds alone still make an interval join; a one-sided bound does not.
    expect(physical("SELECT o.id FROM orders o JOIN shipments s ON o.ts >= s.ts AND o.ts < s.ts + INTERVAL '1' SECOND")[1]).toMatch(/leftLowerBound=0, leftUpperBound=999/);
  });

  it('a join of two windowed inputs on window_start and window_end is a window join (insert-only, outer too); one equality only or different windows are refused', () => {
    const tumble = (table: string) => `(SELECT * FROM TABLE(TUMBLE(TABLE ${table}, DESCRIPTOR(ts), INTERVAL '10' SECOND)))`;
    const join = physical(`SELECT L.id, R.oid, L.window_start FROM ${tumble('orders')} L LEFT JOIN ${tumble('shipments')} R
        ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k`);
    expect(join[1]).toBe(
      'WindowJoin(leftWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], rightWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], joinType=[LeftOuterJoin], where=[AND(AND(=(window_start, window_start0), =(window_end, window_end0)), =(k, k0))], select=[id, k, amount, ts, window_start, window_end, window_time, oid, k0, ts0, window_start0, window_end0, window_time0]), changelogMode=[I]',
    );
    // Insert-only: an append-only sink takes even the outer join.
    tEnv().executeSql(`INSERT INTO files SELECT L.id, R.k FROM ${tumble('orders')} L FULL JOIN ${tumble('shipments')} R ON L.window_start = R.window_start AND L.window_end = R.window_end`);
    // Over window aggregations: the aggregation's window columns.
    const counts = (table: string) => `(SELECT window_start, window_end, k, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE ${table}, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k)`;
    expect(physical(`SELECT L.k, L.c, R.c FROM ${counts('orders')} L JOIN ${counts('shipments')} R ON L.k = R.k AND L.window_start = R.window_start AND L.window_end = R.window_end`)[1]).toMatch(/^WindowJoin\(.*joinType=\[InnerJoin\]/);
    // Without either equality it is a regular join, as in Flink.
    expect(physical(`SELECT L.id FROM ${tumble('orders')} L JOIN ${tumble('shipments')} R ON L.k = R.k`)[1]).toMatch(/^Join\(/);
    const oneEquality = errorOf(() => physical(`SELECT L.id FROM ${tumble('orders')} L JOIN ${tumble('shipments')} R ON L.window_start = R.window_start AND L.k = R.k`));
    expect([oneEquality.code, oneEquality.message]).toEqual([SqlErrorCode.SQL_UNSUPPORTED, expect.stringContaining('add L.window_end = R.window_end')]);
    const hop = `(SELECT * FROM TABLE(HOP(TABLE shipments, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)))`;
    const different = errorOf(() => physical(`SELECT L.id FROM ${tumble('orders')} L JOIN ${hop} R ON L.window_start = R.window_start AND L.window_end = R.window_end`));
    expect(different.message).toMatch(/^Currently, window join doesn't support different window table function of left and right inputs\. The left window table function is TUMBLE\(size=10000 ms\), the right is HOP\(size=10000 ms, slide=5000 ms\)\.$/);
  });

  it('UNION ALL brings the inputs to common types; DISTINCT is a GROUP BY of every column', () => {
    expect(physical('SELECT id, amount FROM orders UNION ALL SELECT oid, k FROM shipments')[0]).toBe('Union(all=[true], union=[id, amount]), changelogMode=[I]');
    const mixed = tEnv().sqlQuery('SELECT amount FROM orders UNION ALL SELECT id FROM orders').getResolvedSchema();
    expect(mixed.map((c) => c.type)).toEqual(['BIGINT']);
    expect(physical('SELECT DISTINCT k FROM orders')[0]).toBe('GroupAggregate(groupBy=[k], select=[k]), changelogMode=[I,UB,UA,D]');
  });

  it('ROW_NUMBER with a filter on it is a Top-N keeping N rows per partition', () => {
    const plan = physical('SELECT * FROM (SELECT id, k, amount, ROW_NUMBER() OVER (PARTITION BY k ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= 3');
    expect(plan[1]).toBe(
      'Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=3], partitionBy=[k], orderBy=[amount DESC], select=[id, k, amount, ts, w0$o0]), changelogMode=[I,UB,UA,D]',
    );
    const dedup = physical('SELECT id, k FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM orders) WHERE rn = 1 AND amount > 0');
    expect(dedup[0]).toBe('Calc(select=[id, k], where=[>(amount, 0)]), changelogMode=[I,UB,UA,D]');
    expect(dedup[1]).toMatch(/rankEnd=1\], partitionBy=\[k\], orderBy=\[ts ASC\]/);
  });

  it('a ROW_NUMBER partitioned by window_start and window_end is a window Top-N, insert-only, over a window TVF or a window aggregation', () => {
    const overTvf = physical(`SELECT * FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rownum
        FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND))
      ) WHERE rownum <= 3`);
    expect(overTvf[1]).toBe(
      'WindowRank(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=3], partitionBy=[], orderBy=[amount DESC], select=[id, k, amount, ts, window_start, window_end, window_time, w0$o0]), changelogMode=[I]',
    );
    const overAggregate = physical(`SELECT window_start, window_end, k, cnt FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY cnt DESC) AS rn
        FROM (SELECT window_start, window_end, k, COUNT(*) AS cnt FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k)
      ) WHERE rn <= 2`);
    expect(overAggregate[1]).toBe(
      'WindowRank(window=[HOP(win_start=[window_start], win_end=[window_end], size=[10 s], slide=[5 s])], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[], orderBy=[cnt DESC], select=[window_start, window_end, k, cnt, w0$o0]), changelogMode=[I]',
    );
    expect(overAggregate[3]).toMatch(/^WindowAggregate\(groupBy=\[k\], window=\[HOP/);
    // Insert-only: an append-only sink takes it.
    tEnv().executeSql(`INSERT INTO files SELECT id, k FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY amount DESC) AS rn
        FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
      ) WHERE rn <= 1`);
    // Without window_end in the PARTITION BY it is the updating Top-N over window rows.
    const notWindowed = physical(`SELECT * FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start ORDER BY amount DESC) AS rn
        FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND))
      ) WHERE rn <= 3`);
    expect(notWindowed[1]).toMatch(/^Rank\(strategy=\[AppendFastStrategy\].*changelogMode=\[I,UB,UA,D\]$/);
  });

  it('refuses bad joins, Top-N and unions with the line and column', () => {
    const unknown = errorOf(() => tEnv().sqlQuery('SELECT o.id FROM orders o JOIN users u\nON o.k = u.kk'));
    expect(isWeirError(unknown, SqlErrorCode.SQL_UNKNOWN_COLUMN)).toBe(true);
    expect(unknown.message).toBe("SQL error at line 2, column 10: Column 'u.kk' not found in any table; did you mean 'k'?");
    const nonEqui = errorOf(() => tEnv().sqlQuery('SELECT o.id FROM orders o JOIN users u ON o.k > u.k'));
    expect(isWeirError(nonEqui, SqlErrorCode.SQL_UNSUPPORTED)).toBe(true);
    expect(nonEqui.message).toMatch(/^SQL error at line 1, column 47: a join without an equality between the two sides' columns \(a non-equi join\)/);
    const noOrder = errorOf(() => tEnv().sqlQuery('SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k) AS rn FROM orders) WHERE rn <= 3'));
    expect(isWeirError(noOrder, SqlErrorCode.SQL_INVALID_QUERY)).toBe(true);
    expect(noOrder.message).toMatch(/^SQL error at line 1, column 26: ROW_NUMBER\(\) OVER needs an ORDER BY/);
    const noLimit = errorOf(() => tEnv().sqlQuery('SELECT *, ROW_NUMBER() OVER (ORDER BY k) AS rn FROM orders'));
    expect(noLimit.message).toMatch(/^SQL error at line 1, column 11: ROW_NUMBER\(\) OVER \(\.\.\) without a filter on it/);
    for (const fn of ['RANK', 'DENSE_RANK']) {
      const refused = errorOf(() => tEnv().sqlQuery(`SELECT * FROM (SELECT *, ${fn}() OVER (PARTITION BY k ORDER BY amount DESC) AS rk FROM orders) WHERE rk <= 3`));
      expect(isWeirError(refused, SqlErrorCode.SQL_UNSUPPORTED), refused.message).toBe(true);
      expect(refused.message).toMatch(new RegExp(`^SQL error at line 1, column 26: ${fn}\\(\\) on streaming table is not supported currently: number the rows with ROW_NUMBER\\(\\)`));
    }
    expect(errorOf(() => tEnv().sqlQuery('SELECT id FROM orders UNION ALL SELECT k, name FROM users')).message).toMatch(/Column count mismatch in UNION ALL: input 1 has 1 columns \(id\), input 2 has 2/);
    const cross = errorOf(() => tEnv().sqlQuery('SELECT o.id FROM orders o, users u'));
    expect(cross.message).toMatch(/^SQL error at line 1, column 26: a join without a condition/);
  });

  it('GROUP BY SESSION(ts, gap) is a session window aggregation (insert-only) with SESSION_START and SESSION_END', () => {
    const plan = physical("SELECT k, SESSION_START(ts, INTERVAL '1' SECOND) AS s, SESSION_END(ts, INTERVAL '1' SECOND) AS e, COUNT(*) AS c FROM orders GROUP BY k, SESSION(ts, INTERVAL '1' SECOND)");
    expect(plan[0]).toBe('Calc(select=[k, w$start AS s, w$end AS e, EXPR$0 AS c]), changelogMode=[I]');
    expect(plan[1]).toBe('WindowAggregate(groupBy=[k], window=[SessionGroupWindow(time_col=[rowtime], gap=[1 s])], select=[k, COUNT(*) AS EXPR$0, start(w$) AS window_start, end(w$) AS window_end]), changelogMode=[I]');
    const notTime = errorOf(() => tEnv().sqlQuery("SELECT k, COUNT(*) FROM users GROUP BY k, SESSION(name, INTERVAL '1' SECOND)"));
    expect(isWeirError(notTime, SqlErrorCode.SQL_NOT_A_TIME_ATTRIBUTE)).toBe(true);
    expect(notTime.message).toMatch(/^SQL error at line 1, column 51: The group window SESSION requires a time attribute/);
    // SESSION_END of another gap than the window's is not the window's end: an ungrouped expression.
    expect(() => tEnv().sqlQuery("SELECT SESSION_END(ts, INTERVAL '2' SECOND) FROM orders GROUP BY SESSION(ts, INTERVAL '1' SECOND)")).toThrow(/not being grouped/);
  });

  it('aggregates OVER a ROWS or RANGE frame on event time, insert-only; refuses other orders and frames', () => {
    const plan = physical('SELECT id, SUM(amount) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM orders');
    expect(plan[1]).toBe('OverAggregate(partitionBy=[k], orderBy=[ts ASC], window=[ROWS BETWEEN 2 PRECEDING AND CURRENT ROW], select=[id, k, amount, ts, SUM(amount) AS w0$o0]), changelogMode=[I]');
    const range = physical("SELECT id, COUNT(*) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' MINUTE PRECEDING AND CURRENT ROW) AS c, MAX(amount) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' MINUTE PRECEDING AND CURRENT ROW) AS m FROM orders");
    expect(range[1]).toMatch(/window=\[RANG BETWEEN 60000 PRECEDING AND CURRENT ROW\], select=\[id, k, amount, ts, COUNT\(\*\) AS w0\$o0, MAX\(amount\) AS w0\$o1\]\), changelogMode=\[I\]$/);
    expect(errorOf(() => tEnv().sqlQuery('SELECT SUM(amount) OVER (PARTITION BY k ORDER BY amount) AS s FROM orders')).message).toMatch(/column 50: An OVER aggregation must be ordered by an event-time attribute/);
    expect(errorOf(() => tEnv().sqlQuery('SELECT SUM(amount) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s FROM orders')).message).toMatch(/the window frame .* is not supported/);
  });

  it('refuses an outer join into an append-only sink, naming the join', () => {
    const error = errorOf(() => tEnv().executeSql('INSERT INTO files SELECT o.id, u.k FROM orders o LEFT JOIN users u ON o.k = u.k'));
    expect(isWeirError(error, SqlErrorCode.SQL_UPDATES_NOT_ACCEPTED)).toBe(true);
    expect(error.message).toMatch(/produced by node Join\(joinType=\[LeftOuterJoin\]/);
    expect(tEnv().executeSql('INSERT INTO files SELECT o.id, u.k FROM orders o JOIN users u ON o.k = u.k').toString()).toBe('OK');
  });

  it('translates joins, interval joins, UNION ALL and Top-N to two-input and keyed operators, every one with a uid from its statement', async () => {
    const graph = await buildStreamGraph(
      (env) => {
        const t = StreamTableEnvironment.create(env);
        for (const ddl of TABLES) t.executeSql(ddl);
        t.executeSql("CREATE TABLE printed (a BIGINT, b INT) WITH ('connector' = 'print')");
        t.executeSql('INSERT INTO printed SELECT o.id, u.k FROM orders o LEFT JOIN users u ON o.k = u.k');
        t.executeSql("INSERT INTO files SELECT o.id, s.k FROM orders o JOIN shipments s ON o.id = s.oid AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '3' SECOND");
        t.executeSql('INSERT INTO printed SELECT id, k FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= 2 UNION ALL SELECT oid, k FROM shipments');
      },
      [],
      DEFAULT_ENVIRONMENT,
    );
    expect(operatorsWithoutUid(graph)).toEqual([]);
    expect(new Set(graph.nodes.map((n) => n.uid)).size).toBe(graph.nodes.length);
    expect(graph.nodes.map((n) => n.name).filter((n) => /Join|Rank/.test(n))).toEqual(['Join[1]', 'IntervalJoin[1]', 'Rank[2]']);
  });
});
