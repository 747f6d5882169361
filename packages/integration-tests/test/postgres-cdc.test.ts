import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PostgresServer, postgresAvailable } from '@weir/postgres-server';
import { jobIdFrom, kafkaEvidence, ProcessCluster, until, waitForStatus, writeJobFile } from '../src/index.ts';
import { CDC_MATERIALIZE } from './postgres-jobs.ts';

import { setTimeout as sleep } from 'node:timers/promises';

const ROWS = 100_000;
/** The machine is shared and loaded: waits are long, never timing assertions. */
const WAIT_MS = 240_000;

/**
 * Issue 29's CDC acceptance at its full size: table `accounts` (100k rows) is
 * snapshotted while a plain `pg` client keeps inserting, updating and deleting rows; the job
 * (p=2 on 2 TaskManagers of one slot each, so every kill hits a task) materializes it through the EXACTLY_ONCE changelog sink into
 * `accounts_copy` in a database of another PostgreSQL server; a TaskManager is SIGKILLed
 * during the snapshot and another while it streams. At the end psql finds both tables equal
 * row for row, and the replication slot's confirmed flush LSN caught up.
 */
describe.skipIf(!postgresAvailable())('PostgresCdcSource into the exactly-once PostgresSink on a process cluster', () => {
  let server: PostgresServer;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    server = await PostgresServer.start();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  afterAll(async () => {
    await server?.destroy();
  });

  /** Random single-row transactions (insert a new id, update or delete an existing one) until `stop()`; returns how many ran. */
  function startWriter(): { stop: () => Promise<number> } {
    let running = true;
    const done = (async () => {
      const client = new pg.Client({ connectionString: server.connectionString('source') });
      await client.connect();
      let next = ROWS + 1;
      let count = 0;
      while (running) {
        const roll = Math.random();
        const id = 1 + Math.floor(Math.random() * (next - 1));
        if (roll < 0.4) await client.query('INSERT INTO accounts VALUES ($1, $2, $3)', [next++, `new-${count}`, count]);
        else if (roll < 0.8) await client.query('UPDATE accounts SET name = $2, balance = balance + 1 WHERE id = $1', [id, `upd-${count}`]);
        else await client.query('DELETE FROM accounts WHERE id = $1', [id]);
        count++;
        await sleep(3);
      }
      await client.end();
      return count;
    })();
    return {
      stop: async () => {
        running = false;
        return done;
      },
    };
  }

  const contents = (database: string, table: string, on = server) => on.psql(`SELECT id || ',' || name || ',' || balance FROM ${table} ORDER BY id`, database);

  it('snapshot under concurrent writes, TaskManagers SIGKILLed during the snapshot and the stream: the copy equals the table row for row', async () => {
    // The copy lives on a server of its own: the slot's lag is measured against the source server's WAL, which the copy's writes would otherwise grow (see the connectors README).
    const targetServer = await PostgresServer.start();
    cleanups.push(() => targetServer.destroy());
    server.createDatabase('source');
    targetServer.createDatabase('target');
    server.psql(`CREATE TABLE accounts (id int PRIMARY KEY, name text NOT NULL, balance bigint NOT NULL); INSERT INTO accounts SELECT g, 'name-' || g, g FROM generate_series(1, ${ROWS}) g`, 'source');
    targetServer.psql('CREATE TABLE accounts_copy (id int PRIMARY KEY, name text NOT NULL, balance bigint NOT NULL)', 'target');
    const c = await ProcessCluster.start({ taskManagers: 2, slots: 1, config: { 'state.checkpoints.dir': join(mkdtempSync(join(tmpdir(), 'weir-pg-cdc-')), 'checkpoints') } });
    cleanups.push(() => c.stop());
    const steps: string[] = [];
    const t0 = Date.now();
    const step = (what: string) => steps.push(`${Date.now() - t0} ms: ${what}`);

    const writer = startWriter();
    const run = await c.weir(['run', '--detached', writeJobFile(CDC_MATERIALIZE), '--', String(server.port), 'source', `postgres://127.0.0.1:${targetServer.port}/target`, 'weir_materialize', '500']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    step('running');
    const copied = (where = '') => Number(targetServer.psql(`SELECT count(*) FROM accounts_copy${where}`, 'target'));
    const waitFor = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + WAIT_MS;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`${what}: not after ${WAIT_MS / 1000} s\n${kafkaEvidence(c, steps)}`);
        await sleep(100);
      }
    };
    // During the snapshot: some of the table copied, not all.
    await waitFor('a quarter of the table copied', () => copied() >= ROWS / 4);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[Math.floor(Math.random() * 2)])).name} with ${copied()} rows copied`);
    await c.startTaskManager();
    await waitForStatus(c.client, jobId, ['RUNNING']);
    // Streaming: rows inserted after the snapshot began arrive only through the stream.
    await waitFor('50 rows inserted after the snapshot copied', () => copied(` WHERE id > ${ROWS}`) >= 50);
    await sleep(1_000 + Math.random() * 1_000);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[Math.floor(Math.random() * 2)])).name} while streaming`);
    await c.startTaskManager();
    await sleep(3_000);
    const writes = await writer.stop();
    step(`writer stopped after ${writes} transactions`);

    const deadline = Date.now() + WAIT_MS;
    let source = contents('source', 'accounts');
    let copy = contents('target', 'accounts_copy', targetServer);
    while (copy !== source && Date.now() < deadline) {
      await sleep(500);
      source = contents('source', 'accounts');
      copy = contents('target', 'accounts_copy', targetServer);
    }
    step('compared');
    const details = await waitForStatus(c.client, jobId, ['RUNNING']);
    const evidence = kafkaEvidence(c, steps);
    const sourceRows = source.split('\n');
    const copyRows = copy.split('\n');
    expect(copyRows.length, evidence).toBe(sourceRows.length);
    expect(copyRows.filter((row, i) => row !== sourceRows[i]).slice(0, 20), evidence).toEqual([]);
    expect(details.attempt, evidence).toBeGreaterThanOrEqual(2);

    // The slot's confirmed flush LSN follows completed checkpoints: with the writer stopped it reaches the end of the WAL the writes made.
    const lag = () => Number(server.psql("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn) FROM pg_replication_slots WHERE slot_name = 'weir_materialize'", 'source'));
    for (let i = 0; i < 50 && lag() > 64 * 1024; i++) await sleep(200);
    expect(lag(), evidence).toBeLessThanOrEqual(64 * 1024);
    await c.weir(['cancel', jobId]);
    expect(targetServer.psql('SELECT count(*) FROM pg_prepared_xacts')).toBe('0');
  }, 900_000);

  it('a column added to the captured table while streaming reaches the copy in the next changes', async () => {
    server.createDatabase('grow_source');
    server.createDatabase('grow_target');
    server.psql("CREATE TABLE accounts (id int PRIMARY KEY, name text NOT NULL, balance bigint NOT NULL); INSERT INTO accounts SELECT g, 'name-' || g, g FROM generate_series(1, 100) g", 'grow_source');
    server.psql('CREATE TABLE accounts_copy (id int PRIMARY KEY, name text NOT NULL, balance bigint NOT NULL)', 'grow_target');
    const c = await ProcessCluster.start({ taskManagers: 1, slots: 2, config: { 'state.checkpoints.dir': join(mkdtempSync(join(tmpdir(), 'weir-pg-grow-')), 'checkpoints') } });
    cleanups.push(() => c.stop());
    const run = await c.weir(['run', '--detached', writeJobFile(CDC_MATERIALIZE), '--', String(server.port), 'grow_source', `postgres://127.0.0.1:${server.port}/grow_target`, 'weir_grow', '500']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await until(async () => server.psql('SELECT count(*) FROM accounts_copy', 'grow_target'), (n) => n === '100', 60_000, 'the snapshot copied');

    // The copy gets the column first, as a user migrating both ends would do it.
    server.psql('ALTER TABLE accounts_copy ADD COLUMN note text', 'grow_target');
    server.psql("ALTER TABLE accounts ADD COLUMN note text; UPDATE accounts SET note = 'note-' || id WHERE id <= 10; INSERT INTO accounts VALUES (101, 'late', 7, 'added')", 'grow_source');
    const rows = (database: string, table: string) => server.psql(`SELECT id || ',' || name || ',' || balance || ',' || coalesce(note, '-') FROM ${table} ORDER BY id`, database);
    const source = rows('grow_source', 'accounts');
    const copy = await until(async () => rows('grow_target', 'accounts_copy'), (copied) => copied === source, 60_000, 'the copy equal to the table with its new column');
    expect(copy.split('\n')).toHaveLength(101);
    expect((await waitForStatus(c.client, jobId, ['RUNNING'])).attempt).toBe(0);
    await c.weir(['cancel', jobId]);
  });

  it('a cancelled job keeps its slot and says how to drop it, or drops it when told to; weir info reports a slot an ended job left; one slot, one running job', async () => {
    server.createDatabase('hyg_source');
    server.psql("CREATE TABLE accounts (id int PRIMARY KEY, name text NOT NULL, balance bigint NOT NULL); INSERT INTO accounts SELECT g, 'name-' || g, g FROM generate_series(1, 100) g", 'hyg_source');
    // A target database per job: two jobs writing one table exactly-once would clash on the sink's prefix first.
    for (const target of ['hyg_kept', 'hyg_dropped', 'hyg_clash']) {
      server.createDatabase(target);
      server.psql('CREATE TABLE accounts_copy (id int PRIMARY KEY, name text NOT NULL, balance bigint NOT NULL)', target);
    }
    const c = await ProcessCluster.start({ taskManagers: 1, slots: 4, config: { 'state.checkpoints.dir': join(mkdtempSync(join(tmpdir(), 'weir-pg-hyg-')), 'checkpoints') } });
    cleanups.push(() => c.stop());
    // weir info logs in as psql would, to look the slot up.
    const env = { ...process.env, PGUSER: 'postgres' };
    const slots = () => server.psql("SELECT slot_name FROM pg_replication_slots WHERE slot_name LIKE 'weir_hyg%' ORDER BY 1", 'hyg_source');
    const run = (slot: string, target: string, onStop: string) =>
      c.weir(['run', '--detached', writeJobFile(CDC_MATERIALIZE), '--', String(server.port), 'hyg_source', `postgres://127.0.0.1:${server.port}/${target}`, slot, '500', onStop]);
    const start = async (slot: string, target: string, onStop: string) => {
      const started = await run(slot, target, onStop);
      expect(started.code, started.stderr).toBe(0);
      return jobIdFrom(started.stdout);
    };

    const kept = await start('weir_hyg_kept', 'hyg_kept', 'keep');
    const dropped = await start('weir_hyg_dropped', 'hyg_dropped', 'drop');
    await until(async () => slots(), (s) => s === 'weir_hyg_dropped\nweir_hyg_kept', 60_000, 'both slots created');
    // A second job on a running job's slot is refused at submission, naming the slot and the job.
    const clash = await run('weir_hyg_kept', 'hyg_clash', 'keep');
    expect(clash.code).not.toBe(0);
    expect(clash.stderr).toMatch(new RegExp(`PostgreSQL replication slot 'weir_hyg_kept' on 127\\.0\\.0\\.1:${server.port}/hyg_source, which job '[^']+' \\(${kept}\\) uses while it runs`));

    const cancelKept = await c.weir(['cancel', kept]);
    expect(cancelKept.code, cancelKept.stderr).toBe(0);
    expect(cancelKept.stdout).toContain(`Left behind: PostgreSQL replication slot 'weir_hyg_kept' on 127.0.0.1:${server.port}/hyg_source is kept`);
    expect(cancelKept.stdout).toContain(`psql -h 127.0.0.1 -p ${server.port} -d hyg_source -c "SELECT pg_drop_replication_slot('weir_hyg_kept')"`);
    const cancelDropped = await c.weir(['cancel', dropped]);
    expect(cancelDropped.code, cancelDropped.stderr).toBe(0);
    expect(cancelDropped.stdout).not.toContain('Left behind');
    await waitForStatus(c.client, kept, ['CANCELED']);
    await waitForStatus(c.client, dropped, ['CANCELED']);
    await until(async () => slots(), (s) => s === 'weir_hyg_kept', 60_000, 'the dropping job\'s slot gone, the keeping one\'s kept');

    // Without --check-slots weir info logs in nowhere: the server is the one the job's submitter named.
    const unchecked = await c.weir(['info', kept], { env });
    expect(unchecked.stdout).toContain(
      `replication slot 'weir_hyg_kept' on 127.0.0.1:${server.port}/hyg_source: may still be there (weir info --check-slots looks it up there, logging in with PGUSER and PGPASSWORD); drop it with: SELECT pg_drop_replication_slot('weir_hyg_kept')`,
    );
    const infoKept = await c.weir(['info', kept, '--check-slots'], { env });
    expect(infoKept.code, infoKept.stderr).toBe(0);
    expect(infoKept.stdout).toMatch(/Left behind by the job:\n  replication slot 'weir_hyg_kept' on [^:]+:\d+\/hyg_source: still there, holding .+ of WAL; drop it with: SELECT pg_drop_replication_slot\('weir_hyg_kept'\)/);
    const infoDropped = await c.weir(['info', dropped, '--check-slots'], { env });
    expect(infoDropped.stdout).toContain(`replication slot 'weir_hyg_dropped' on 127.0.0.1:${server.port}/hyg_source: dropped`);

    // The printed statement works: afterwards weir info finds the slot gone.
    server.psql("SELECT pg_drop_replication_slot('weir_hyg_kept')", 'hyg_source');
    expect((await c.weir(['info', kept, '--check-slots'], { env })).stdout).toContain(`replication slot 'weir_hyg_kept' on 127.0.0.1:${server.port}/hyg_source: dropped`);
  });
});
