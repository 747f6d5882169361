import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { SqlErrorCode } from '../errors.ts';
import { parseStatement } from '../parse/parser.ts';
import type { CreateTable, Select } from '../parse/ast.ts';
import { Catalog } from './catalog.ts';
import { tableFromDdl } from './ddl.ts';
import { bindQuery } from './query.ts';
import { typeToString } from './types.ts';

function catalogWith(...ddls: string[]): Catalog {
  const catalog = new Catalog();
  for (const ddl of ddls) catalog.add(tableFromDdl(parseStatement(ddl) as CreateTable), undefined);
  return catalog;
}

const BIDS = "CREATE TABLE bids (id BIGINT, price DECIMAL(10, 2), name STRING, ts TIMESTAMP(3), k AS CAST(id % 5 AS INT), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')";

function fields(sql: string): string[] {
  return bindQuery(parseStatement(sql) as Select, catalogWith(BIDS)).fields.map((f) => `${f.name} ${typeToString(f.type)}`);
}

function error(sql: string, ...ddls: string[]): { code: string; message: string } {
  try {
    const statement = parseStatement(sql);
    if (statement.kind === 'createTable') tableFromDdl(statement);
    else bindQuery(statement as Select, catalogWith(BIDS, ...ddls));
  } catch (err) {
    if (isWeirError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error(`no error for ${sql}`);
}

describe('validation: names and Flink types', () => {
  it('types columns, computed columns and the rowtime attribute as Flink does', () => {
    expect(fields('SELECT * FROM bids')).toEqual(['id BIGINT', 'price DECIMAL(10, 2)', 'name STRING', 'ts TIMESTAMP(3) *ROWTIME*', 'k INT']);
  });

  it('gives arithmetic Flink\'s result types, DECIMAL exact', () => {
    expect(fields("SELECT price * 2, price + 1.5, price / 4, id + 1, id / 2.0E0, ts + INTERVAL '1' SECOND, UPPER(name) || 'x', CASE WHEN id > 1 THEN price ELSE 0 END FROM bids")).toEqual([
      'EXPR$0 DECIMAL(20, 2)',
      'EXPR$1 DECIMAL(11, 2)',
      'EXPR$2 DECIMAL(21, 13)',
      'EXPR$3 BIGINT',
      'EXPR$4 DOUBLE',
      'EXPR$5 TIMESTAMP(3)',
      'EXPR$6 STRING',
      'EXPR$7 DECIMAL(12, 2)',
    ]);
  });

  it('types aggregates: COUNT BIGINT NOT NULL, SUM of DECIMAL(38, s), AVG of DECIMAL(38, max(6, s))', () => {
    expect(fields('SELECT k, COUNT(*), SUM(price), AVG(price), MIN(name), AVG(id) FROM bids GROUP BY k')).toEqual([
      'k INT',
      'EXPR$1 BIGINT NOT NULL',
      'EXPR$2 DECIMAL(38, 2)',
      'EXPR$3 DECIMAL(38, 6)',
      'EXPR$4 STRING',
      'EXPR$5 BIGINT',
    ]);
  });

  it('names an unknown column, table or function with its position and the nearest name', () => {
    expect(error('SELECT id,\n  prise FROM bids')).toEqual({ code: SqlErrorCode.SQL_UNKNOWN_COLUMN, message: "SQL error at line 2, column 3: Column 'prise' not found in any table; did you mean 'price'?" });
    expect(error('SELECT id FROM bds')).toEqual({ code: SqlErrorCode.SQL_UNKNOWN_TABLE, message: "SQL error at line 1, column 16: Object 'bds' not found; did you mean 'bids'?" });
    expect(error('SELECT LOWR(name) FROM bids')).toEqual({ code: SqlErrorCode.SQL_UNKNOWN_FUNCTION, message: 'SQL error at line 1, column 8: No match found for function signature LOWR; did you mean LOWER?' });
    expect(error('SELECT b.id FROM bids AS a').message).toBe("SQL error at line 1, column 8: Table 'b' not found in FROM; did you mean 'a'?");
  });

  it('refuses operands of the wrong type, saying which forms are accepted', () => {
    expect(error("SELECT price + name FROM bids")).toEqual({
      code: SqlErrorCode.SQL_TYPE_MISMATCH,
      message: "SQL error at line 1, column 14: Cannot apply '+' to arguments of type <DECIMAL(10, 2)>, <STRING>. Supported form(s): <NUMERIC> + <NUMERIC>, <TIMESTAMP> + <INTERVAL>",
    });
    expect(error('SELECT id FROM bids WHERE name').message).toMatch(/WHERE takes a BOOLEAN condition, got STRING/);
    expect(error('SELECT CAST(ts AS INT) FROM bids').message).toMatch(/Cast function cannot convert value of type TIMESTAMP\(3\) to type INT/);
  });

  it('refuses a column neither grouped nor aggregated', () => {
    expect(error('SELECT k, name FROM bids GROUP BY k').message).toBe("SQL error at line 1, column 11: Expression 'name' is not being grouped; add it to GROUP BY or aggregate it");
  });

  it('refuses a window TVF over a column without a WATERMARK', () => {
    expect(error("SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(id), INTERVAL '1' SECOND)) GROUP BY window_start, window_end")).toEqual({
      code: SqlErrorCode.SQL_NOT_A_TIME_ATTRIBUTE,
      message:
        'SQL error at line 1, column 72: The window function TUMBLE requires the time column to be a time attribute (a column with a WATERMARK, or PROCTIME()), but id is BIGINT; declare WATERMARK FOR id AS ... in the table',
    });
  });

  it('refuses a WATERMARK on a column that is not a timestamp', () => {
    expect(error("CREATE TABLE t (a INT, WATERMARK FOR a AS a - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')")).toEqual({
      code: SqlErrorCode.SQL_TYPE_MISMATCH,
      message:
        "SQL error at line 1, column 38: Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(3) or TIMESTAMP_LTZ(3), but the time field 'a' is INT",
    });
  });
});
