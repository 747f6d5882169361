import { describe, expect, it } from 'vitest';
import { evaluateItems } from '../testing/evaluate.ts';

const T = "CREATE TABLE t (ts TIMESTAMP(3), lt TIMESTAMP_LTZ(3), d DATE) WITH ('connector' = 'datagen')";

/** Each select item of `SELECT <items> FROM t` over one row [ts, lt, d], as Flink prints it, and its type. */
function evaluate(items: string, row: unknown[]): Array<[string, string]> {
  return evaluateItems(T, items, row).map(({ value, type }) => [value, `${type.root}${type.nullable ? '' : ' NOT NULL'}`]);
}

const values = (items: string, row: unknown[]): string[] => evaluate(items, row).map(([v]) => v);
const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 86_400_000;
const UNITS = ['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'DAYOFWEEK', 'DAYOFYEAR', 'HOUR', 'MINUTE', 'SECOND', 'MILLISECOND'];
const extractAll = (column: string): string => UNITS.map((u) => `EXTRACT(${u} FROM ${column})`).join(', ');

describe('EXTRACT(unit FROM ..) as Flink computes it', () => {
  it('takes every unit of a TIMESTAMP(3) and a TIMESTAMP_LTZ(3) (UTC), each a BIGINT', () => {
    // 2026-12-03 (a Thursday) 13:05:09.042: ISO week 49, day 337 of the year; Sunday is day 1 of the week.
    const t = Date.UTC(2026, 11, 3, 13, 5, 9, 42);
    const expected = ['2026', '4', '12', '49', '3', '5', '337', '13', '5', '9', '42'];
    expect(values(extractAll('ts'), [t, null, null])).toEqual(expected);
    expect(values(extractAll('lt'), [null, t, null])).toEqual(expected);
    expect(evaluate('EXTRACT(HOUR FROM ts)', [t, null, null])).toEqual([['13', 'BIGINT']]);
    expect(values('EXTRACT(DOW FROM ts), EXTRACT(DOY FROM ts), EXTRACT(ISODOW FROM ts), EXTRACT(ISOYEAR FROM ts), EXTRACT(EPOCH FROM ts), EXTRACT(MICROSECOND FROM ts)', [t, null, null])).toEqual(['5', '337', '4', '2026', '1796303109', '42000']);
    expect(values('EXTRACT(DECADE FROM ts), EXTRACT(CENTURY FROM ts), EXTRACT(MILLENNIUM FROM ts)', [t, null, null])).toEqual(['202', '21', '3']);
  });

  it('takes the units of a date from a DATE, ISO weeks across the year and leap days right', () => {
    // Independently (Python's date.isocalendar()): 2021-01-01 is in week 53 of 2020, 2024-12-30 in week 1 of 2025.
    expect(values('EXTRACT(WEEK FROM d), EXTRACT(ISOYEAR FROM d), EXTRACT(YEAR FROM d), EXTRACT(DAYOFWEEK FROM d)', [null, null, day(2021, 1, 1)])).toEqual(['53', '2020', '2021', '6']);
    expect(values('EXTRACT(WEEK FROM d), EXTRACT(ISOYEAR FROM d), EXTRACT(DAYOFYEAR FROM d)', [null, null, day(2024, 12, 30)])).toEqual(['1', '2025', '365']);
    expect(values('EXTRACT(DOY FROM d), EXTRACT(QUARTER FROM d)', [null, null, day(2024, 12, 31)])).toEqual(['366', '4']);
    expect(values('EXTRACT(YEAR FROM d), EXTRACT(MONTH FROM d), EXTRACT(DAY FROM d), EXTRACT(DOY FROM d), EXTRACT(WEEK FROM d), EXTRACT(DOW FROM d), EXTRACT(EPOCH FROM d)', [null, null, day(2024, 2, 29)])).toEqual([
      '2024',
      '2',
      '29',
      '60',
      '9',
      '5',
      String(19_782 * 86_400),
    ]);
    expect(values('EXTRACT(WEEK FROM d), EXTRACT(DOW FROM d), EXTRACT(ISODOW FROM d)', [null, null, day(2027, 1, 3)])).toEqual(['53', '1', '7']);
  });

  it('reads a time before 1970 as written (hour 23 of 1969-12-31) and gives NULL for NULL', () => {
    expect(values('EXTRACT(YEAR FROM ts), EXTRACT(DAY FROM ts), EXTRACT(HOUR FROM ts), EXTRACT(MINUTE FROM ts), EXTRACT(SECOND FROM ts), EXTRACT(MILLISECOND FROM ts), EXTRACT(EPOCH FROM ts)', [-1, null, null])).toEqual([
      '1969',
      '31',
      '23',
      '59',
      '59',
      '999',
      '0',
    ]);
    expect(evaluate('EXTRACT(YEAR FROM ts), EXTRACT(MONTH FROM CAST(NULL AS DATE))', [null, null, null])).toEqual([
      ['null', 'BIGINT'],
      ['null', 'BIGINT'],
    ]);
  });

  it('takes an expression, and keywords in lower case', () => {
    expect(values('extract(hour from ts + INTERVAL \'11\' HOUR) * 10', [Date.UTC(2026, 0, 1, 20), null, null])).toEqual(['70']);
  });
});
