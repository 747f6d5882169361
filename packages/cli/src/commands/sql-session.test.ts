import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { StreamExecutionEnvironment } from '@weir/api';
import { parseStatements, StreamTableEnvironment } from '@weir/sql';
import { runSqlSession, statementComplete, statementKind } from './sql-session.ts';
import { tableau } from '../sql-client/tableau.ts';

/** Runs `lines` as a session on a fresh table environment: each submission answers `jobId`, each query's result is CANCELED. */
async function runSession(jobId: string, lines: readonly string[]) {
  const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
  const out: string[] = [];
  const scripts: string[] = [];
  const shown: Array<{ jobId: string; columns: readonly string[] }> = [];
  await runSqlSession(Readable.from([lines.join('\n')]), {
    execute: (s) => tEnv.executeSql(s),
    kindOf: (s) => statementKind(parseStatements(s)[0]?.kind),
    submit: async (script) => (scripts.push(script), jobId),
    showResult: async (id, columns) => (shown.push({ jobId: id, columns }), 'CANCELED'),
    checkSettings: () => {},
    out: (line) => void out.push(line),
  });
  return { out, scripts, shown };
}

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
    const { out, scripts } = await runSession('a1b2c3', [
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
    ]);
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

  it('plans a SELECT here (a misspelled column is refused with its line, column and suggestion), then submits it and shows its result', async () => {
    const { out, scripts, shown } = await runSession('f00d', [
      "CREATE TABLE src (id BIGINT, k AS CAST(id % 3 AS INT)) WITH ('connector' = 'datagen');",
      'SELECT k, COUNT(*) AS cnt',
      'FROM src GROUP BY kk;',
      'SELECT k, COUNT(*) AS cnt FROM src GROUP BY k;',
    ]);
    expect(out.slice(1)).toEqual([
      '[ERROR] Could not execute SQL statement. Reason:',
      expect.stringMatching(/^SQL error at line 2, column 19: Column 'kk' not found in any table; did you mean 'k'\?/) as unknown as string,
      '[INFO] Submitting SQL query to the cluster...',
      '[INFO] Result of job f00d (Ctrl-C cancels it):',
      '[INFO] Job f00d CANCELED.',
    ]);
    expect(shown).toEqual([{ jobId: 'f00d', columns: ['k', 'cnt'] }]);
    expect(scripts).toEqual([expect.stringMatching(/^CREATE TABLE src[\s\S]*;\nSELECT k, COUNT\(\*\) AS cnt FROM src GROUP BY k;$/) as unknown as string]);
  });
});
