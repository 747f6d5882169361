import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { jobIdFrom, ProcessCluster, repoRoot, writeJobFile } from '@weir/integration-tests';
import { QUERIES, type NexmarkQuery } from '../nexmark/queries.ts';
import { timeRunningToFinished } from '../job-timing.ts';
import { cpuSeconds } from '../process-cpu.ts';
import type { Scenario } from '../scenario.ts';
import { runQuery, type QueryResult } from './nexmark.ts';

/** Events per query run, unless `--events` says otherwise: less than `nexmark`'s, SQL runs each query twice over. */
const EVENTS = 500_000;
const PARALLELISM = 2;
/** Every run appends its rows here (nexmark.csv keeps the DataStream runs' columns). */
const CSV = join(repoRoot, 'packages/bench/results/nexmark-sql.csv');
const CSV_HEADER =
  'date,commit,query,events,parallelism,datastream_events_per_second,datastream_cpu_us_per_event,sql_events_per_second,sql_cpu_us_per_event,sql_over_datastream_per_core,flink_events_per_second_per_core,load_average';

/** The queries both APIs run: every DataStream query of the bench, as Weir's SQL plans them all. */
const SQL_QUERIES = ['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q7', 'q8', 'q11'];

/**
 * The query as the Nexmark repository writes it, over the `nexmark` table source (Flink's DDL
 * and views, WITH options Weir's), into its blackhole sink. The job's text is written to a file
 * and submitted as `weir run` submits any job; the cluster provides @weir/sql.
 */
const SQL_JOB = `
import type { StreamExecutionEnvironment } from '@weir/api';
import { NEXMARK_QUERIES, NEXMARK_VIEWS, nexmarkDdl, StreamTableEnvironment } from '@weir/sql';

export default function nexmarkSql(env: StreamExecutionEnvironment, args: string[]) {
  const [name, events] = args;
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(nexmarkDdl({ 'events.num': events }));
  for (const view of NEXMARK_VIEWS) tEnv.executeSql(view);
  for (const statement of NEXMARK_QUERIES[name]) tEnv.executeSql(statement);
}
`;

interface SqlResult {
  readonly seconds: number;
  readonly eventsPerSecond: number;
  readonly cores: number;
  readonly perCore: number;
}

async function runSql(cluster: ProcessCluster, jobFile: string, query: string, events: number): Promise<SqlResult> {
  const before = cluster.taskManagers.map((tm) => cpuSeconds(tm.pid));
  const submit = await cluster.weir(['run', '--detached', '-p', String(PARALLELISM), jobFile, '--', query, String(events)]);
  if (submit.code !== 0) throw new Error(`submitting SQL ${query} failed: ${submit.stderr}`);
  const ms = await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout));
  const cpu = cluster.taskManagers.map((tm) => cpuSeconds(tm.pid)).reduce((sum, now, i) => sum + now - before[i]!, 0);
  const seconds = ms / 1000;
  return { seconds, eventsPerSecond: events / seconds, cores: cpu / seconds, perCore: events / cpu };
}

const k = (n: number): string => `${(n / 1000).toFixed(1)}K`;
const usPerEvent = (perCore: number): number => 1e6 / perCore;

export const nexmarkSql: Scenario = {
  name: 'sql',
  description:
    `Nexmark ${SQL_QUERIES.join(' ')} as Flink SQL (the Nexmark repository's text over the nexmark table source, into blackhole) beside the same queries on the DataStream API (the nexmark scenario's jobs, results verified), ` +
    `alternated in one run on one cluster, ${EVENTS / 1000}K events each unless --events N (--queries q0,q5 runs only those), parallelism ${PARALLELISM} on 2 TaskManagers: events/s and TaskManager CPU per event of each, SQL / DataStream per core; rows appended to results/nexmark-sql.csv`,
  async run(options) {
    const events = options.events ?? EVENTS;
    const names = options.queries ?? SQL_QUERIES;
    const unknown = names.filter((n) => !SQL_QUERIES.includes(n));
    if (unknown.length > 0) throw new Error(`no SQL and DataStream Nexmark query ${unknown.join(', ')}; there are ${SQL_QUERIES.join(', ')}`);
    const queries = names.map((n) => QUERIES.find((q) => q.name === n)!);
    const jobFile = writeJobFile(SQL_JOB, 'nexmark-sql.ts');
    const cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 1,
      // A TaskManager parses a SQL job's statements on its event loop when the job arrives.
      config: { 'metrics.fetcher.update-interval': 0, 'heartbeat.timeout': 60_000, 'jobmanager.job-main.timeout': 300_000 },
      taskManagerNodeArgs: options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [],
    });
    const results: { query: NexmarkQuery; datastream: QueryResult; sql: SqlResult; load: number }[] = [];
    try {
      for (const query of queries) {
        const datastream = await runQuery(cluster, query, events);
        if (!datastream.verified) throw new Error(`DataStream ${query.name}: ${datastream.rows} rows, expected ${datastream.expectedRows}`);
        const sql = await runSql(cluster, jobFile, query.name, events);
        results.push({ query, datastream, sql, load: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]) });
      }
    } finally {
      await cluster.stop();
    }
    appendCsv(results, events);
    const figures: Record<string, number> = {};
    for (const r of results) {
      figures[`${r.query.name}SqlEventsPerSecondPerCore`] = Math.round(r.sql.perCore);
      figures[`${r.query.name}SqlOverDataStream`] = Number((r.sql.perCore / r.datastream.perCore).toFixed(3));
    }
    return {
      figures,
      rows: results.map(
        (r) =>
          [
            `${r.query.name} (${r.query.summary})`,
            `SQL ${k(r.sql.eventsPerSecond)}/s, DataStream ${k(r.datastream.eventsPerSecond)}/s`,
            `per core SQL ${k(r.sql.perCore)}/s (${usPerEvent(r.sql.perCore).toFixed(1)} µs CPU/event), DataStream ${k(r.datastream.perCore)}/s (${usPerEvent(r.datastream.perCore).toFixed(1)} µs); SQL/DataStream ${(r.sql.perCore / r.datastream.perCore).toFixed(2)}; Flink ${k(r.query.flinkPerCore)}/s per core`,
          ] as const,
      ),
    };
  },
};

function appendCsv(results: readonly { query: NexmarkQuery; datastream: QueryResult; sql: SqlResult; load: number }[], events: number): void {
  mkdirSync(dirname(CSV), { recursive: true });
  if (!existsSync(CSV)) appendFileSync(CSV, `${CSV_HEADER}\n`);
  const date = new Date().toISOString();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  for (const r of results) {
    const cells = [
      date,
      commit,
      r.query.name,
      events,
      PARALLELISM,
      Math.round(r.datastream.eventsPerSecond),
      usPerEvent(r.datastream.perCore).toFixed(2),
      Math.round(r.sql.eventsPerSecond),
      usPerEvent(r.sql.perCore).toFixed(2),
      (r.sql.perCore / r.datastream.perCore).toFixed(3),
      r.query.flinkPerCore,
      r.load,
    ];
    appendFileSync(CSV, `${cells.join(',')}\n`);
  }
}
