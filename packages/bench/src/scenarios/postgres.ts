import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication';
import { jobIdFrom, ProcessCluster, repoRoot, waitForStatus } from '@weir/integration-tests';
import { PostgresServer } from '@weir/postgres-server';
import { timeRunningToFinished } from '../job-timing.ts';
import type { Scenario } from '../scenario.ts';

/** Rows per side, unless `--events` says otherwise. */
const ROWS = 100_000;
/** Rows per INSERT of the plain client, and per transaction of the CDC input. */
const CHUNK = 1_000;

/** Every run appends a row here, for comparisons over time; the load average says how busy the machine was. */
const CSV = join(repoRoot, 'packages/bench/results/postgres.csv');
const CSV_HEADER = 'date,commit,rows,sink_rows_per_second,insert_rows_per_second,sink_ratio,cdc_events_per_second,reader_events_per_second,cdc_ratio,load_average_1m';

function appendCsv(rows: number, figures: Record<string, number>): void {
  mkdirSync(dirname(CSV), { recursive: true });
  if (!existsSync(CSV)) appendFileSync(CSV, `${CSV_HEADER}\n`);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const f = figures as { sinkRowsPerSecond: number; insertRowsPerSecond: number; sinkRatio: number; cdcEventsPerSecond: number; readerEventsPerSecond: number; cdcRatio: number };
  const cells = [new Date().toISOString(), commit, rows, Math.round(f.sinkRowsPerSecond), Math.round(f.insertRowsPerSecond), f.sinkRatio.toFixed(2), Math.round(f.cdcEventsPerSecond), Math.round(f.readerEventsPerSecond), f.cdcRatio.toFixed(2), loadavg()[0]!.toFixed(2)];
  appendFileSync(CSV, `${cells.join(',')}\n`);
}

/** The plain client's side of the sink comparison: the same rows as batched INSERTs in one transaction. */
async function plainInserts(server: PostgresServer, rows: number): Promise<number> {
  const client = new pg.Client({ connectionString: server.connectionString() });
  await client.connect();
  const started = performance.now();
  await client.query('BEGIN');
  for (let from = 0; from < rows; from += CHUNK) {
    const n = Math.min(CHUNK, rows - from);
    const params: unknown[] = [];
    for (let i = from; i < from + n; i++) params.push(i, `row ${i}`);
    await client.query(`INSERT INTO bench_copy (id, v) VALUES ${Array.from({ length: n }, (_, k) => `($${2 * k + 1}, $${2 * k + 2})`).join(', ')}`, params);
  }
  await client.query('COMMIT');
  const ms = performance.now() - started;
  await client.end();
  return ms;
}

/** The plain client's side of the CDC comparison: a pgoutput reader of its own slot that counts the inserts and drops them. */
async function plainReader(server: PostgresServer, rows: number): Promise<number> {
  const service = new LogicalReplicationService({ host: server.host, port: server.port, user: 'postgres', database: 'postgres' });
  let seen = 0;
  const started = performance.now();
  const done = new Promise<void>((resolve) =>
    service.on('data', (_lsn: string, message: Pgoutput.Message) => {
      if (message.tag === 'insert' && ++seen === rows) resolve();
    }),
  );
  void service.subscribe(new PgoutputPlugin({ protoVersion: 1, publicationNames: ['dbz_publication'] }), 'bench_plain').catch(() => {});
  await done;
  const ms = performance.now() - started;
  await service.destroy();
  return ms;
}

/**
 * PostgreSQL at both ends against plain clients on the same server (a PostgreSQL 15 instance
 * of @weir/postgres-server) in the same run: (1) rows/s through the EXACTLY_ONCE PostgresSink
 * (a bounded generator, p=2 on 2 TaskManagers, upserts, 1 s checkpoints, RUNNING to FINISHED)
 * against one client doing batched INSERTs in one transaction; (2) change events/s the
 * PostgresCdcSource reads from a slot holding the changes of `rows` inserts (1000 per
 * transaction), against a pgoutput reader of its own slot over the same WAL that counts and
 * drops them. Weir's CDC time runs from the job's RUNNING to the last row's arrival in
 * bench_done (its filter drops the others).
 */
export const postgres: Scenario = {
  name: 'postgres',
  description: `rows (${ROWS} unless --events says) through the EXACTLY_ONCE PostgresSink vs batched INSERTs, and as many change events through the PostgresCdcSource vs a plain pgoutput reader`,
  async run({ events }) {
    const rows = events ?? ROWS;
    const server = await PostgresServer.start();
    const dir = mkdtempSync(join(tmpdir(), 'weir-bench-postgres-'));
    try {
      server.psql('CREATE TABLE bench_sink (id int PRIMARY KEY, v text); CREATE TABLE bench_copy (id int PRIMARY KEY, v text); CREATE TABLE bench_cdc (id int PRIMARY KEY, v text); CREATE TABLE bench_done (id int PRIMARY KEY, v text)');
      // psql -c runs its statements in one transaction, and a slot cannot be created in one that wrote.
      server.psql('CREATE PUBLICATION dbz_publication FOR TABLE bench_cdc');
      for (const slot of ['bench_weir', 'bench_plain']) server.psql(`SELECT pg_create_logical_replication_slot('${slot}', 'pgoutput')`);
      for (let from = 1; from <= rows; from += CHUNK) server.psql(`INSERT INTO bench_cdc SELECT g, 'row ' || g FROM generate_series(${from}, ${Math.min(rows, from + CHUNK - 1)}) g`);

      const copyMs = await plainInserts(server, rows);
      const readerMs = await plainReader(server, rows);

      const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
      let sinkMs: number;
      let cdcMs: number;
      try {
        const sink = await cluster.weir(['run', '--detached', '-p', '2', join(repoRoot, 'packages/bench/jobs/postgres-sink.ts'), '--', `jdbc:postgresql://127.0.0.1:${server.port}/postgres`, String(rows)]);
        if (sink.code !== 0) throw new Error(`weir run failed: ${sink.stderr}`);
        sinkMs = await timeRunningToFinished(cluster.client, jobIdFrom(sink.stdout));
        if (server.psql('SELECT count(*) FROM bench_sink') !== String(rows)) throw new Error('the PostgresSink did not write every row');

        const cdc = await cluster.weir(['run', '--detached', join(repoRoot, 'packages/bench/jobs/postgres-cdc.ts'), '--', String(server.port), String(rows)]);
        if (cdc.code !== 0) throw new Error(`weir run failed: ${cdc.stderr}`);
        const jobId = jobIdFrom(cdc.stdout);
        await waitForStatus(cluster.client, jobId, ['RUNNING']);
        const started = performance.now();
        // One connection polling (not a psql process per poll): the job under measurement needs the CPU.
        const poller = new pg.Client({ connectionString: server.connectionString() });
        await poller.connect();
        while ((await poller.query('SELECT 1 FROM bench_done')).rowCount === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        cdcMs = performance.now() - started;
        await poller.end();
        await cluster.weir(['cancel', jobId]);
      } finally {
        await cluster.stop();
      }
      const rate = (ms: number) => rows / (ms / 1000);
      const figures = { sinkRowsPerSecond: rate(sinkMs), insertRowsPerSecond: rate(copyMs), sinkRatio: copyMs / sinkMs, cdcEventsPerSecond: rate(cdcMs), readerEventsPerSecond: rate(readerMs), cdcRatio: readerMs / cdcMs };
      appendCsv(rows, figures);
      return {
        figures,
        rows: [
          ['Weir EXACTLY_ONCE PostgresSink (p=2)', rate(sinkMs).toFixed(0), 'rows/s'],
          ['plain batched INSERTs, one transaction', rate(copyMs).toFixed(0), 'rows/s'],
          ['sink / plain', (copyMs / sinkMs).toFixed(2), '×'],
          ['Weir PostgresCdcSource', rate(cdcMs).toFixed(0), 'events/s'],
          ['plain pgoutput reader', rate(readerMs).toFixed(0), 'events/s'],
          ['CDC / plain', (readerMs / cdcMs).toFixed(2), '×'],
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.destroy();
    }
  },
};
