import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '@weir/api';
import { StreamTableEnvironment } from '../table-environment.ts';
import { parseStatement } from './parser.ts';

const BIDS = "CREATE TABLE bids (auction BIGINT, d DATE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')";

function bidsEnv(): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
  tEnv.executeSql(BIDS);
  return tEnv;
}

describe('EXTRACT(unit FROM ..) through dt-sql-parser', () => {
  it("parses every unit, the reserved keywords among them (YEAR, DAY, HOUR, ..), as the call EXTRACT('<UNIT>', expr) at the positions written", () => {
    for (const unit of ['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'DOW', 'DOY', 'EPOCH', 'hour']) {
      expect(parseStatement(`SELECT EXTRACT(${unit} FROM ts) FROM bids`)).toMatchObject({
        items: [{ kind: 'expr', expr: { kind: 'call', name: 'EXTRACT', args: [{ kind: 'literal', text: unit.toUpperCase(), pos: { line: 1, column: 16 } }, { kind: 'column', path: ['ts'] }], pos: { line: 1, column: 8 } } }],
      });
    }
    // Flink's DAYOFWEEK(d) and DAYOFYEAR(d) are EXTRACT(DOW ..) and EXTRACT(DOY ..): their names are those units.
    expect(parseStatement('SELECT EXTRACT(DAYOFWEEK FROM ts), EXTRACT(DAYOFYEAR FROM ts) FROM bids')).toMatchObject({
      items: [{ expr: { args: [{ text: 'DOW' }, {}] } }, { expr: { args: [{ text: 'DOY' }, {}] } }],
    });
    // Keywords elsewhere stay keywords: HOUR(ts) is still a function, YEAR an interval unit.
    expect(parseStatement("SELECT HOUR(ts), ts + INTERVAL '1' YEAR FROM bids WHERE EXTRACT(YEAR FROM ts) > 2000")).toMatchObject({
      items: [{ expr: { kind: 'call', name: 'HOUR' } }, { expr: { kind: 'call', name: '+', args: [{}, { kind: 'interval', unit: 'YEAR' }] } }],
      where: { kind: 'call', name: '>', args: [{ kind: 'call', name: 'EXTRACT' }, {}] },
    });
  });

  it('reports a unit Flink does not have at its line and column with the nearest one, and a syntax error after EXTRACT where it is', () => {
    expect(() => parseStatement('SELECT auction,\n  EXTRACT(HOURS FROM ts) FROM bids')).toThrow(
      "SQL error at line 2, column 11: 'HOURS' is not a time unit of EXTRACT; did you mean 'HOUR'?",
    );
    expect(() => parseStatement('SELECT EXTRACT(SELECT FROM ts) FROM bids')).toThrow("SQL error at line 1, column 16: 'SELECT' is not a time unit of EXTRACT");
    expect(() => parseStatement('SELECT EXTRACT(HOUR FROM ts) FROM bids WHERE')).toThrow('SQL error at line 1, column 45');
    // Only a keyword between `EXTRACT (` and FROM is taken as a unit: a call missing FROM is the parser's error, as before.
    expect(() => parseStatement('SELECT EXTRACT(HOUR ts) FROM bids')).toThrow("SQL error at line 1, column 21: 'ts' is not valid at this position");
  });
});

describe('EXTRACT in the table environment', () => {
  it('plans EXTRACT in SELECT, WHERE and GROUP BY (Flink\'s EXPLAIN text, BIGINT) and builds the job', () => {
    const tEnv = bidsEnv();
    const table = tEnv.sqlQuery('SELECT EXTRACT(HOUR FROM ts) AS h, COUNT(*) AS c FROM bids WHERE EXTRACT(DOW FROM d) IN (1, 7) GROUP BY EXTRACT(HOUR FROM ts)');
    expect(table.getResolvedSchema()).toEqual([
      { name: 'h', type: 'BIGINT' },
      { name: 'c', type: 'BIGINT NOT NULL' },
    ]);
    expect(table.explain()).toContain('Calc(select=[EXTRACT(FLAG(HOUR), ts) AS $f0], where=[IN(EXTRACT(FLAG(DOW), d), 1, 7)])');
  });

  it('refuses a time-of-day unit of a DATE, and EXTRACT of a non-temporal value, at the call, before anything runs', () => {
    const tEnv = bidsEnv();
    expect(() => tEnv.sqlQuery('SELECT EXTRACT(HOUR FROM d) FROM bids')).toThrow(/^SQL error at line 1, column 8: Cannot apply 'EXTRACT' to HOUR of <DATE>\. Supported form\(s\): EXTRACT\(<unit> FROM <TIMESTAMP> \| <TIMESTAMP_LTZ>\), EXTRACT\(<date unit> FROM <DATE>\)/);
    expect(() => tEnv.sqlQuery('SELECT auction, EXTRACT(YEAR FROM auction) FROM bids')).toThrow("SQL error at line 1, column 17: Cannot apply 'EXTRACT' to YEAR of <BIGINT>");
  });
});
