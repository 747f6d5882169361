import { describe, expect, it } from 'vitest';
import { evaluateItems } from '../testing/evaluate.ts';

const T = "CREATE TABLE t (i INT, b BIGINT, d DECIMAL(10, 2), s STRING, x DOUBLE, ts TIMESTAMP(3)) WITH ('connector' = 'datagen')";

/** Each select item of `SELECT <items> FROM t` over one row, as Flink would print the value. */
function evaluate(items: string, row: unknown[]): string[] {
  return evaluateItems(T, items, row).map(({ value }) => value);
}

const ROW = [7, 10_000_000_000, 1234n /* 12.34 */, 'Hello', 2.5, Date.UTC(2026, 11, 3, 13, 5, 9, 42)];

describe('compiled expressions', () => {
  it('computes DECIMAL exactly, with Flink\'s scales', () => {
    expect(evaluate('d + 0.01, d * 3, d / 3, d - i, d % 5, -d, d * x, CAST(d AS INT), CAST(i AS DECIMAL(5, 1)), 0.1 + 0.2', ROW)).toEqual([
      '12.35',
      '37.02',
      '4.1133333333333',
      '5.34',
      '2.34',
      '-12.34',
      '30.85',
      '12',
      '7.0',
      '0.3',
    ]);
  });

  it('divides INT as Flink does (truncating) and BIGINT past 2^31', () => {
    expect(evaluate('i / 2, i % 4, b + i, b / i', ROW)).toEqual(['3', '3', '10000000007', '1428571428']);
  });

  it('evaluates CASE, COALESCE, IF, comparisons across types and three-valued logic', () => {
    expect(evaluate("CASE WHEN i > 5 THEN 'big' ELSE 'small' END, CASE i WHEN 1 THEN 'one' END, COALESCE(CAST(NULL AS INT), i), i = 7.0, d > i, IF(i < 0, 1, 2)", ROW)).toEqual(['big', 'null', '7', 'TRUE', 'TRUE', '2']);
    expect(evaluate('i > 1 OR CAST(NULL AS BOOLEAN), i < 1 AND CAST(NULL AS BOOLEAN), i < 1 OR CAST(NULL AS BOOLEAN), i BETWEEN 1 AND 7, i IN (1, 2), s IS NOT NULL', ROW)).toEqual(['TRUE', 'FALSE', 'null', 'TRUE', 'FALSE', 'TRUE']);
  });

  it('evaluates REGEXP_EXTRACT and SPLIT_INDEX as Flink does (NULL when nothing matches or past the end)', () => {
    const url = ['https://www.nexmark.com/a_b/cd/e/item.htm?query=1&channel_id=123'];
    const row = [1, 2, 3n, url[0], 1.5, 0];
    expect(evaluate("REGEXP_EXTRACT(s, '(&|^)channel_id=([^&]*)', 2), REGEXP_EXTRACT(s, 'nope=(\\d+)'), REGEXP_EXTRACT(s, 'www\\.(\\w+)')", row)).toEqual(['123', 'null', 'nexmark']);
    expect(evaluate("SPLIT_INDEX(s, '/', 3), SPLIT_INDEX(s, '/', 1), SPLIT_INDEX(s, '/', 9), SPLIT_INDEX(s, '/', -1)", row)).toEqual(['a_b', '', 'null', 'null']);
    expect(() => evaluate("SPLIT_INDEX(s, '/')", row)).toThrow(/SPLIT_INDEX\(<STRING>, <STRING> separator, <INTEGER> index\)/);
  });

  it('evaluates string functions, LIKE and CAST to and from STRING', () => {
    expect(evaluate("UPPER(s), LOWER(s) || '!', SUBSTRING(s, 2, 3), REPLACE(s, 'l', 'L'), s LIKE 'He%o', s LIKE 'h%', CAST(d AS STRING), CAST('42' AS INT) + 1, CONCAT(s, ' ', CAST(i AS STRING))", ROW)).toEqual([
      'HELLO',
      'hello!',
      'ell',
      'HeLLo',
      'TRUE',
      'FALSE',
      '12.34',
      '43',
      'Hello 7',
    ]);
  });

  it('computes with timestamps and intervals', () => {
    expect(evaluate("ts + INTERVAL '1' MINUTE, ts - INTERVAL '10' SECOND, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm'), TO_TIMESTAMP_LTZ(b, 3), TO_TIMESTAMP('2020-01-02 03:04:05')", ROW)).toEqual([
      '2026-12-03 13:06:09.042',
      '2026-12-03 13:04:59.042',
      '2026-12-03 13:05',
      '1970-04-26 17:46:40.000',
      '2020-01-02 03:04:05.000',
    ]);
  });

  it('propagates null through operators and functions', () => {
    expect(evaluate('i + 1, UPPER(s), d * 2, s || s', [null, null, null, null, null, null])).toEqual(['null', 'null', 'null', 'null']);
  });
});
