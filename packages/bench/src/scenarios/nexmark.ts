import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { jobIdFrom, ProcessCluster, repoRoot } from '@weir/integration-tests';
import { combine, digestOf, EMPTY_DIGEST, type Digest } from '../nexmark/digest.ts';
import { QUERIES, type NexmarkQuery } from '../nexmark/queries.ts';
import { timeRunningToFinished } from '../job-timing.ts';
import { cpuSeconds } from '../process-cpu.ts';
import type { Scenario } from '../scenario.ts';

/** Events per query run, unless `--events` says otherwise. */
const EVENTS = 2_000_000;
const PARALLELISM = 2;
const JOB = join(repoRoot, 'packages/bench/jobs/nexmark.ts');
/** Every run appends its rows here, for comparisons over time. */
const CSV = join(repoRoot, 'packages/bench/results/nexmark.csv');
const CSV_HEADER = 'date,commit,query,events,parallelism,seconds,events_per_second,cores,events_per_second_per_core,flink_events_per_second_per_core,verified';

function readDigests(dir: string): Digest {
  if (!existsSync(dir)) return EMPTY_DIGEST;
  return readdirSync(dir)
    .filter((f) => f.startsWith('digest-'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Digest)
    .reduce(combine, EMPTY_DIGEST);
}

export interface QueryResult {
  readonly query: NexmarkQuery;
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  readonly cores: number;
  readonly perCore: number;
  readonly verified: boolean;
  readonly rows: number;
  readonly expectedRows: number;
}

export async function runQuery(cluster: ProcessCluster, query: NexmarkQuery, events: number): Promise<QueryResult> {
  const output = join(mkdtempSync(join(tmpdir(), `weir-nexmark-${query.name}-`)), 'digests');
  const before = cluster.taskManagers.map((tm) => cpuSeconds(tm.pid));
  const submit = await cluster.weir(['run', '--detached', '-p', String(PARALLELISM), JOB, '--', query.name, String(events), output]);
  if (submit.code !== 0) throw new Error(`submitting ${query.name} failed: ${submit.stderr}`);
  const ms = await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout));
  const cpu = cluster.taskManagers.map((tm) => cpuSeconds(tm.pid)).reduce((sum, now, i) => sum + now - before[i]!, 0);
  const seconds = ms / 1000;
  const got = readDigests(output);
  const expected = digestOf(query.reference(events));
  const eventsPerSecond = events / seconds;
  const cores = cpu / seconds;
  return {
    query,
    events,
    seconds,
    eventsPerSecond,
    cores,
    perCore: eventsPerSecond / cores,
    verified: got.rows === expected.rows && got.sum === expected.sum && got.xor === expected.xor,
    rows: got.rows,
    expectedRows: expected.rows,
  };
}

function appendCsv(results: readonly QueryResult[]): void {
  mkdirSync(dirname(CSV), { recursive: true });
  if (!existsSync(CSV)) appendFileSync(CSV, `${CSV_HEADER}\n`);
  const date = new Date().toISOString();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  for (const r of results) {
    const cells = [date, commit, r.query.name, r.events, PARALLELISM, r.seconds.toFixed(3), Math.round(r.eventsPerSecond), r.cores.toFixed(2), Math.round(r.perCore), r.query.flinkPerCore, r.verified];
    appendFileSync(CSV, `${cells.join(',')}\n`);
  }
}

const k = (n: number): string => `${(n / 1000).toFixed(1)}K`;

export const nexmark: Scenario = {
  name: 'nexmark',
  description:
    `Nexmark ${QUERIES.map((q) => q.name).join(' ')} on the standard generator (people:auctions:bids 1:3:46), ${EVENTS / 1e6}M events each unless --events N says otherwise (--queries q5,q7 runs only those), ` +
    `parallelism ${PARALLELISM} on 2 TaskManagers, every result checked against a single-process computation; Flink 1.13's per-core figures from github.com/nexmark/nexmark`,
  async run(options) {
    const events = options.events ?? EVENTS;
    const unknown = options.queries?.filter((name) => !QUERIES.some((q) => q.name === name)) ?? [];
    if (unknown.length > 0) throw new Error(`no Nexmark query ${unknown.join(', ')}; there are ${QUERIES.map((q) => q.name).join(', ')}`);
    const queries = options.queries === undefined ? QUERIES : QUERIES.filter((q) => options.queries!.includes(q.name));
    const cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 1,
      config: { 'metrics.fetcher.update-interval': 0 },
      taskManagerNodeArgs: options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [],
    });
    const results: QueryResult[] = [];
    try {
      for (const query of queries) results.push(await runQuery(cluster, query, events));
    } finally {
      await cluster.stop();
    }
    appendCsv(results);
    const wrong = results.filter((r) => !r.verified);
    if (wrong.length > 0) {
      throw new Error(`Nexmark results differ from the reference: ${wrong.map((r) => `${r.query.name} (${r.rows} rows, expected ${r.expectedRows})`).join(', ')}`);
    }
    const figures: Record<string, number> = {};
    for (const r of results) {
      figures[`${r.query.name}EventsPerSecond`] = Math.round(r.eventsPerSecond);
      figures[`${r.query.name}EventsPerSecondPerCore`] = Math.round(r.perCore);
    }
    return {
      figures,
      rows: results.map(
        (r) =>
          [
            `${r.query.name} (${r.query.summary})`,
            `${k(r.eventsPerSecond)}/s`,
            `${k(r.perCore)}/s per core (${r.cores.toFixed(2)} cores); Flink ${k(r.query.flinkPerCore)}/s per core; ${r.rows} rows verified`,
          ] as const,
      ),
    };
  },
};
