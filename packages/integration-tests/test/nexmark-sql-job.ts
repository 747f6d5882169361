/**
 * A job of Nexmark's Flink SQL queries over the `nexmark` table source, for nexmark-sql.test.ts:
 * Flink's DDL and views, each query's SELECT as the Nexmark repository writes it (its INSERT
 * without `INSERT INTO <blackhole sink>`), read as a changelog (toChangelogStream, since the
 * filesystem sink is append-only and some queries update) and written as `+I[..]` lines through
 * the FileSink's exactly-once commit, one directory per query. q10 runs as written, its INSERT
 * into its own PARTITIONED BY filesystem table (WITH adapted: Weir's path, no partition commit),
 * which writes Hive-style \`dt=../hm=../\` directories. q13 looks bids up in its side_input
 * table, \`side_input/\` beside the output dir, which the test writes before it submits the job
 * (a job's main may not write files), its WITH adapted to Weir's filesystem options.
 *
 * args: output dir, events, events/s, checkpoint interval ms, checkpoint dir, parallelism, queries (q0,q3,..)
 */
export const NEXMARK_SQL_JOB = `
import { join } from 'node:path';
import { CheckpointingMode, FsStateBackend, type StreamExecutionEnvironment } from '@weir/api';
import { FileSink, SimpleStringEncoder } from '@weir/connectors';
import { NEXMARK_QUERIES, NEXMARK_VIEWS, nexmarkDdl, nexmarkSelect, nexmarkWith, rowToString, StreamTableEnvironment } from '@weir/sql';

export default function nexmarkSqlJob(env: StreamExecutionEnvironment, args: string[]) {
  const [outDir, events, rate, interval, checkpointDir, parallelism, queries] = args;
  env.setParallelism(Number(parallelism));
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.setStateBackend(new FsStateBackend(checkpointDir));
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(nexmarkDdl({ 'events.num': events, 'first-event.rate': rate, 'next-event.rate': rate }));
  for (const view of NEXMARK_VIEWS) tEnv.executeSql(view);
  for (const name of queries.split(',')) {
    const statements = NEXMARK_QUERIES[name];
    if (name === 'q10') {
      tEnv.executeSql(nexmarkWith(statements[0], { connector: 'filesystem', path: join(outDir, name), format: 'csv' }));
      tEnv.executeSql(statements[1]);
      continue;
    }
    if (name === 'q13') {
      tEnv.executeSql(nexmarkWith(statements[0], { connector: 'filesystem', path: join(outDir, '..', 'side_input'), format: 'csv' }));
    }
    for (const statement of statements.slice(name === 'q13' ? 1 : 0, -1)) tEnv.executeSql(statement);
    const table = tEnv.sqlQuery(nexmarkSelect(name));
    tEnv.toChangelogStream(table)
      .map((row) => rowToString(row, table.fields)).uid(name + '-text')
      .sinkTo(FileSink.forRowFormat(join(outDir, name), new SimpleStringEncoder<string>()).build()).uid(name + '-sink');
  }
}
`;
