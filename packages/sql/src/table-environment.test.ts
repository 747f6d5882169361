import { ScalarFunction } from './functions/scalar-function.ts';
import { describe, expect, it } from 'vitest';
import { buildStreamGraph, DEFAULT_ENVIRONMENT, operatorsWithoutUid, StreamExecutionEnvironment } from '@weir/api';
import { isWeirError } from '@weir/common';
import { SqlErrorCode } from './errors.ts';
import { StreamTableEnvironment } from './table-environment.ts';

const EVENTS = `CREATE TABLE events (
  id BIGINT, price DECIMAL(10, 2),
  k AS CAST(id % 5 AS INT),
  ts AS TO_TIMESTAMP_LTZ(id * 10, 3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND,
  PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'datagen', 'number-of-rows' = '100', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '99')`;
const FILES = "CREATE TABLE files (k INT, c BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-sql-unit', 'format' = 'csv')";
const PRINTED = "CREATE TABLE printed (k INT, c BIGINT) WITH ('connector' = 'print')";
const GROUPED = 'SELECT k, COUNT(*) AS c FROM events GROUP BY k';
const WINDOWED = "SELECT k, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end";

function withTables(fn: (tEnv: StreamTableEnvironment) => void): (env: StreamExecutionEnvironment) => void {
  return (env) => {
    const tEnv = StreamTableEnvironment.create(env);
    for (const ddl of [EVENTS, FILES, PRINTED]) tEnv.executeSql(ddl);
    fn(tEnv);
  };
}

async function graphOf(fn: (tEnv: StreamTableEnvironment) => void) {
  return buildStreamGraph(withTables(fn), [], DEFAULT_ENVIRONMENT);
}

/** Planning alone, no job graph (a graph needs a source). */
async function plan(fn: (tEnv: StreamTableEnvironment) => void): Promise<void> {
  withTables(fn)(new StreamExecutionEnvironment());
}

describe('StreamTableEnvironment', () => {
  it('SHOW TABLES and DESCRIBE as Flink prints them', async () => {
    await plan((tEnv) => {
      expect(tEnv.executeSql('SHOW TABLES').rows).toEqual([['events'], ['files'], ['printed']]);
      expect(tEnv.executeSql('SHOW VIEWS').rows).toEqual([]);
      expect(tEnv.executeSql('SHOW USER FUNCTIONS').rows).toEqual([]);
      const functions = tEnv.executeSql('SHOW FUNCTIONS').rows.map((r) => r[0]);
      expect(functions).toEqual(expect.arrayContaining(['abs', 'count', 'round', 'timestampdiff', 'extract', 'cast']));
      expect(functions).toEqual([...functions].sort());
      tEnv.executeSql('CREATE VIEW recent AS SELECT * FROM events');
      tEnv.createTemporarySystemFunction('Twice', new (class extends ScalarFunction {
        readonly resultType = 'STRING';
        eval(s: unknown): unknown {
          return s;
        }
      })());
      expect([tEnv.executeSql('SHOW VIEWS').rows, tEnv.executeSql('SHOW USER FUNCTIONS').rows, tEnv.executeSql('SHOW TABLES').rows.length]).toEqual([[['recent']], [['twice']], 4]);
      expect(tEnv.executeSql('SHOW FUNCTIONS').rows.map((r) => r[0])).toContain('twice');
      expect(() => tEnv.executeSql('SHOW CATALOGS')).toThrow('the statement SHOW CATALOGS (Weir shows SHOW TABLES, SHOW VIEWS, SHOW FUNCTIONS, SHOW USER FUNCTIONS) is not supported');
      expect(tEnv.executeSql('DESCRIBE events').rows).toEqual([
        ['id', 'BIGINT', 'FALSE', 'PRI(id)', '', ''],
        ['price', 'DECIMAL(10, 2)', 'TRUE', '', '', ''],
        ['k', 'INT', 'TRUE', '', 'AS CAST(%(id, 5) AS INT)', ''],
        ['ts', 'TIMESTAMP_LTZ(3) *ROWTIME*', 'TRUE', '', 'AS TO_TIMESTAMP_LTZ(*(id, 10), 3)', '-(ts, 1000:INTERVAL SECOND)'],
      ]);
    });
  });

  it('EXPLAIN prints the logical plan and the physical plan with each operator\'s changelog mode', async () => {
    await plan((tEnv) => {
      expect(tEnv.executeSql(`EXPLAIN INSERT INTO printed ${GROUPED}`).toString()).toBe(
        [
          '== Abstract Syntax Tree ==',
          'LogicalSink(table=[default_catalog.default_database.printed], fields=[k, c])',
          '   LogicalCalc(select=[k, EXPR$0 AS c])',
          '      LogicalGroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$0])',
          '         LogicalCalc(select=[k])',
          '            LogicalTableSourceScan(table=[[default_catalog, default_database, events]], fields=[id, price, k, ts], watermark=[-(ts, 1000:INTERVAL SECOND)])',
          '',
          '== Optimized Physical Plan ==',
          'Sink(table=[default_catalog.default_database.printed], fields=[k, c]), changelogMode=[NONE]',
          '   Calc(select=[k, EXPR$0 AS c]), changelogMode=[I,UB,UA,D]',
          '      GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$0]), changelogMode=[I,UB,UA,D]',
          '         Calc(select=[k]), changelogMode=[I]',
          '            TableSourceScan(table=[[default_catalog, default_database, events, project=[id, k, ts]]], fields=[id, price, k, ts], watermark=[-(ts, 1000:INTERVAL SECOND)]), changelogMode=[I]',
          '',
        ].join('\n'),
      );
      // Grouped by window_start and window_end, the aggregate becomes a WindowAggregate: insert-only.
      expect(tEnv.sqlQuery(WINDOWED).explain()).toContain(
        "WindowAggregate(groupBy=[k], window=[TUMBLE(time_col=[rowtime], size=[1 s])], select=[k, COUNT(*) AS EXPR$0, start(w$) AS window_start, end(w$) AS window_end]), changelogMode=[I]",
      );
    });
  });

  it('refuses an updating query into an append-only sink, naming the operator and the sinks to use', async () => {
    await graphOf((tEnv) => {
      let error: unknown;
      try {
        tEnv.executeSql(`INSERT INTO files ${GROUPED}`);
      } catch (err) {
        error = err;
      }
      expect(isWeirError(error, SqlErrorCode.SQL_UPDATES_NOT_ACCEPTED)).toBe(true);
      expect((error as Error).message).toBe(
        "Table sink 'default_catalog.default_database.files' (connector 'filesystem') doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$0]); write it to a sink that takes updates ('print', 'blackhole', or 'upsert-kafka' with a PRIMARY KEY), or aggregate over a window TVF (TUMBLE, HOP, CUMULATE) for insert-only results",
      );
      // The same query over windows is insert-only, and a print table takes updates.
      expect(tEnv.executeSql(`INSERT INTO files ${WINDOWED}`).toString()).toBe('OK');
      expect(tEnv.executeSql(`INSERT INTO printed ${GROUPED}`).toString()).toBe('OK');
      expect(() => tEnv.toDataStream(tEnv.sqlQuery(GROUPED))).toThrow(/use toChangelogStream/);
    });
  });

  it('refuses unknown connectors and options before anything runs', async () => {
    await plan((tEnv) => {
      tEnv.executeSql("CREATE TABLE a (x INT) WITH ('connector' = 'datagn')");
      tEnv.executeSql("CREATE TABLE b (x INT) WITH ('connector' = 'datagen', 'rows-per-secnd' = '1')");
      expect(() => tEnv.sqlQuery('SELECT x FROM a')).toThrow("Table 'a': no connector 'datagn'; did you mean 'datagen'? (Weir's SQL has datagen, print, blackhole, filesystem");
      expect(() => tEnv.sqlQuery('SELECT x FROM b')).toThrow("Table 'b': connector 'datagen' has no option 'rows-per-secnd'; did you mean 'rows-per-second'?");
    });
  });

  it('gives every operator a uid from its statement: the same statement, the same uids; another statement, others', async () => {
    const job = (query: string) => (tEnv: StreamTableEnvironment) => {
      tEnv.executeSql(`INSERT INTO files ${query}`);
    };
    const first = await graphOf(job(WINDOWED));
    const again = await graphOf(job(WINDOWED.replaceAll(' ', '  ')));
    const other = await graphOf(job(WINDOWED.replace("'1'", "'2'")));
    expect(operatorsWithoutUid(first)).toEqual([]);
    const uids = (g: typeof first) => g.nodes.map((n) => n.uid);
    expect(uids(again)).toEqual(uids(first));
    expect(new Set(uids(other)).size).toBe(uids(other).length);
    expect(uids(other).filter((u) => uids(first).includes(u))).toEqual([]);
    expect(first.nodes.map((n) => n.name)).toEqual(['TableSourceScan[events]', 'Scan[events]', 'Calc[2]', 'WindowAggregate[1]', 'Calc[0]', 'Format[files]', 'Sink[files]']);
  });
});
