import { describe, expect, it } from 'vitest';
import { bindItems, evaluateItems } from '../testing/evaluate.ts';
import { isWeirError } from '@weir/common';
import { typeToString } from '../validate/types.ts';
import { compile } from './compile.ts';

const T = "CREATE TABLE t (i INT, b BIGINT, d DECIMAL(10, 2), s STRING, x DOUBLE, ts TIMESTAMP(3), n INT, dt DATE) WITH ('connector' = 'datagen')";
// i=7, b=10^10, d=12.35, s=' Hello wOrld ', x=-2.345, ts=2026-12-03 13:05:09.042 (a Thursday), n=NULL, dt=2024-02-29.
const ROW = [7, 10_000_000_000, 1235n, ' Hello wOrld ', -2.345, Date.UTC(2026, 11, 3, 13, 5, 9, 42), null, Date.UTC(2024, 1, 29) / 86_400_000];

const bind = (items: string) => bindItems(T, items);

/** Each select item over ROW, as Flink prints the value. */
function evaluate(items: string): string[] {
  return evaluateItems(T, items, ROW).map(({ value }) => value);
}

const types = (items: string): string[] => bind(items).fields.map((f) => typeToString(f.type));

describe("Flink's built-in functions", () => {
  it('rounds HALF_UP on the decimal form, with Flink\'s DECIMAL result types', () => {
    expect(evaluate('ROUND(x, 2), ROUND(x), ROUND(2.675E0, 2), ROUND(1.005E0, 2), ROUND(i, -1), ROUND(15, -1), ROUND(d, 1), ROUND(d, -1), ROUND(d, 3), ROUND(n, 1)')).toEqual([
      '-2.35', '-2', '2.68', '1.01', '10', '20', '12.4', '10', '12.35', 'null',
    ]);
    expect(types('ROUND(d, 1), ROUND(d, -1), ROUND(d, 3), ROUND(x, 1), ROUND(i)')).toEqual(['DECIMAL(10, 1) NOT NULL', 'DECIMAL(9, 0) NOT NULL', 'DECIMAL(10, 2) NOT NULL', 'DOUBLE NOT NULL', 'INT NOT NULL'].map((t) => t.replace(' NOT NULL', '')));
  });

  it('floors, ceils and does the math of doubles', () => {
    expect(evaluate('FLOOR(x), CEIL(x), CEILING(d), FLOOR(-d), FLOOR(i), POWER(i, 2), SQRT(16), EXP(0), LN(1), LOG10(1000), LOG2(8), LOG(2, 8), SIGN(x), SIGN(d), ABS(x)')).toEqual([
      '-3', '-2', '13', '-13', '7', '49', '4', '1', '0', '3', '3', '3', '-1', '1.00', '2.345',
    ]);
    expect(types('FLOOR(d), CEIL(i)')).toEqual(['DECIMAL(9, 0)', 'INT']);
  });

  it('compares: NULLIF, GREATEST and LEAST (NULL when any argument is)', () => {
    expect(evaluate("NULLIF(i, 7), NULLIF(i, 8), GREATEST(i, 3, d), LEAST(i, 3, d), GREATEST(i, n), LEAST('b', 'a')")).toEqual(['null', '7', '12.35', '3.00', 'null', 'a']);
  });

  it('works strings as Flink does', () => {
    expect(
      evaluate("LPAD('hi', 4, '??'), LPAD('hi', 1, '??'), RPAD('hi', 5, 'ab'), LPAD('hi', -1, 'x'), LPAD('hi', 3, ''), LTRIM(s), RTRIM(s), REVERSE('abc'), INITCAP('hello wOrld 3ab-cd'), REPEAT('ab', 3), REPEAT('ab', 0), LOCATE('o', s), LOCATE('l', s, 6), LOCATE('z', s), CHARACTER_LENGTH('héllo')"),
    ).toEqual(['??hi', 'h', 'hiaba', 'null', 'null', 'Hello wOrld ', ' Hello wOrld', 'cba', 'Hello World 3ab-Cd', 'ababab', '', '6', '11', '0', '5']);
    expect(evaluate("REGEXP_REPLACE('foobar', 'oo|ar', ''), REGEXP_REPLACE('a1b22', '(\\d+)', '<$1>'), REGEXP_REPLACE('x', '(', 'y'), REGEXP('abc', 'b'), REGEXP('abc', '^b')")).toEqual([
      'fb', 'a<1>b<22>', 'null', 'TRUE', 'FALSE',
    ]);
    expect(evaluate("MD5('abc'), SHA1('abc'), SHA256(''), TO_BASE64('hello world'), FROM_BASE64('aGVsbG8gd29ybGQ=')")).toEqual([
      '900150983cd24fb0d6963f7d28e17f72',
      'a9993e364706816aba3e25717850c26c9cd0d89d',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'aGVsbG8gd29ybGQ=',
      'hello world',
    ]);
  });

  it('reads date parts of a timestamp or a date, and converts Unix seconds', () => {
    expect(evaluate('YEAR(ts), QUARTER(ts), MONTH(ts), WEEK(ts), DAYOFYEAR(ts), DAYOFMONTH(ts), DAYOFWEEK(ts), YEAR(dt), DAYOFYEAR(dt), DAYOFWEEK(dt)')).toEqual(['2026', '4', '12', '49', '337', '3', '5', '2024', '60', '5']);
    expect(evaluate("FROM_UNIXTIME(1700000000), FROM_UNIXTIME(0, 'yyyy/MM/dd HH'), UNIX_TIMESTAMP('2023-11-14 22:13:20'), UNIX_TIMESTAMP('14.11.2023', 'dd.MM.yyyy'), UNIX_TIMESTAMP('nope')")).toEqual([
      '2023-11-14 22:13:20', '1970/01/01 00', '1700000000', '1699920000', 'null',
    ]);
    const [now, current, local, today, unix] = bind('NOW(), CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, UNIX_TIMESTAMP()').projects.map((p) => compile(p)(ROW) as number);
    const ms = Date.now();
    for (const t of [now, current, local]) expect(Math.abs(t! - ms)).toBeLessThan(60_000);
    expect(today).toBe(Math.floor(ms / 86_400_000));
    expect(Math.abs(unix! - ms / 1000)).toBeLessThan(60);
    expect(types('NOW(), CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE')).toEqual(['TIMESTAMP_LTZ(3) NOT NULL', 'TIMESTAMP_LTZ(3) NOT NULL', 'TIMESTAMP(3) NOT NULL', 'DATE NOT NULL']);
  });

  it('takes differences and sums of timestamps in Flink\'s units, months by the calendar; POSITION(a IN b) is LOCATE', () => {
    expect(
      evaluate(
        "TIMESTAMPDIFF(SECOND, TIMESTAMP '2026-12-03 13:05:00', ts), TIMESTAMPDIFF(HOUR, ts, TIMESTAMP '2026-12-03 10:00:00'), TIMESTAMPDIFF(DAY, dt, ts), " +
          "TIMESTAMPDIFF(MONTH, TIMESTAMP '2026-01-31 00:00:00', TIMESTAMP '2026-02-28 23:59:59'), TIMESTAMPDIFF(MONTH, TIMESTAMP '2026-01-31 00:00:00', TIMESTAMP '2026-03-31 00:00:00'), " +
          'TIMESTAMPDIFF(YEAR, dt, ts), TIMESTAMPDIFF(QUARTER, ts, dt)',
      ),
    ).toEqual(['9', '-3', '1008', '0', '2', '2', '-11']);
    expect(evaluate("TIMESTAMPADD(MONTH, 1, TIMESTAMP '2024-01-31 10:00:00'), TIMESTAMPADD(WEEK, -1, ts), TIMESTAMPADD(YEAR, 1, dt), TIMESTAMPADD(MINUTE, 5, ts), POSITION('l' IN s)")).toEqual([
      '2024-02-29 10:00:00.000', '2026-11-26 13:05:09.042', '2025-02-28', '2026-12-03 13:10:09.042', '4',
    ]);
    expect(() => bind('TIMESTAMPDIFF(SECONDS, ts, ts)')).toThrow("'SECONDS' is not a unit of TIMESTAMPDIFF or TIMESTAMPADD; did you mean 'SECOND'?");
  });

  it('refuses wrong arguments with the forms each takes', () => {
    const error = (items: string) => {
      try {
        bind(items);
      } catch (err) {
        expect(isWeirError(err, 'SQL_TYPE_MISMATCH')).toBe(true);
        return (err as Error).message;
      }
      throw new Error('expected an error');
    };
    expect(error("POWER('a', 2)")).toMatch(/Cannot apply 'POWER' to arguments of type <STRING NOT NULL>, <INT NOT NULL>\. Supported form\(s\): POWER\(<NUMERIC>, <NUMERIC>\)/);
    expect(error('ROUND(d, i)')).toMatch(/ROUND\(<NUMERIC>\[, <INTEGER>\]\), with an integer literal for a DECIMAL/);
    expect(error('YEAR(s)')).toMatch(/YEAR\(<DATE> \| <TIMESTAMP>\)/);
    expect(error("LPAD('a', 'b', 'c')")).toMatch(/LPAD\(<STRING>, <INTEGER> length, <STRING> pad\)/);
  });
});
