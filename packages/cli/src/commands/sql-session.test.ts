import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { StreamExecutionEnvironment } from '@weir/api';
import { parseStatements, StreamTableEnvironment } from '@weir/sql';
import { runSqlSession, statementComplete, tableau } from './sql-session.ts';

describe('weir sql session', () => {
  it('ends a statement at a ; outside quotes and comments', () => {
    expect(statementComplete("SELECT 'a;b'")).toBe(false);
    expect(statementComplete("SELECT 'a;b';  ")).toBe(true);
    expect(statementComplete('SHOW TABLES -- and more;')).toBe(false);
    expect(statementComplete('SHOW TABLES;\n-- done')).toBe(true);
  });

  it('prints results as tableau boxes', () => {
    expect(tableau(['table name'], [['orders']])).toEqual(['+------------+', '| table name |', '+------------+', '|     orders |', '+------------+', '1 row in set']);
  });

  it('runs multi-line statements, keeps the session after an error (with its line and column), and submits an INSERT with the DDL and SETs before it', async () => {
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    const out: string[] = [];
    const scripts: string[] = [];
    const input = [
      "CREATE TABLE src (id BIGINT, k AS CAST(id % 3 AS INT)) WITH ('connector' = 'datagen',",
      "  'number-of-rows' = '10', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '9');",
      "CREATE TABLE sink (k INT, c BIGINT) WITH ('connector' = 'print');",
      "SET 'table.exec.state.ttl' = '1 h';",
      'SHOW TABLES;',
      'INSERT INTO sink SELECT k, COUNT(*) FROM srcc GROUP BY k;',
      'INSERT INTO sink',
      'SELECT k, COUNT(*) FROM src GROUP BY k;',
      'quit;',
      'SHOW TABLES;',
    ].join('\n');
    await runSqlSession(Readable.from([input]), {
      execute: (s) => tEnv.executeSql(s),
      isInsert: (s) => parseStatements(s)[0]?.kind === 'insert',
      submit: async (script) => (scripts.push(script), 'a1b2c3'),
      out: (line) => void out.push(line),
    });
    expect(out).toEqual([
      '[INFO] Execute statement succeed.',
      '[INFO] Execute statement succeed.',
      '[INFO] Execute statement succeed.',
      '+------------+',
      '| table name |',
      '+------------+',
      '|       sink |',
      '|        src |',
      '+------------+',
      '2 rows in set',
      '[ERROR] Could not execute SQL statement. Reason:',
      expect.stringMatching(/^SQL error at line 1, column 42: Object 'srcc' not found; did you mean 'src'\?/) as unknown as string,
      '[INFO] Submitting SQL update statement to the cluster...',
      '[INFO] SQL update statement has been successfully submitted to the cluster:',
      'Job ID: a1b2c3',
    ]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^CREATE TABLE src[\s\S]*;\nCREATE TABLE sink[\s\S]*;\nSET 'table.exec.state.ttl' = '1 h';\nINSERT INTO sink\nSELECT k, COUNT\(\*\) FROM src GROUP BY k;$/);
  });
});
