import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD_USER, PostgresServer, postgresAvailable } from '@weir/postgres-server';
import { jobIdFrom, ProcessCluster, until, waitForStatus, writeJobFile } from '../src/index.ts';
import { CDC_DISCARD, SINK_ROWS } from './postgres-jobs.ts';

/**
 * Issue 29's bad input on one process cluster: a wrong password, a missing table, a server
 * whose wal_level is not logical, one without a free replication slot, a TRUNCATE of a captured
 * table while streaming, and a server with max_prepared_transactions = 0. Each job ends
 * FAILED with a cause that names what is wrong and how to fix it (a constraint violation: the
 * table, the constraint and the record's key); then the same cluster runs a
 * good job to its end (psql counts its rows).
 */
describe.skipIf(!postgresAvailable())('Postgres connectors: bad input fails the job clearly, the cluster keeps serving', () => {
  let good: PostgresServer;
  let plain: PostgresServer;
  /** Room for one replication slot, which the test takes first. */
  let oneSlot: PostgresServer;
  let cluster: ProcessCluster;

  beforeAll(async () => {
    [good, plain, oneSlot] = await Promise.all([
      PostgresServer.start(),
      PostgresServer.start({ settings: { wal_level: 'replica', max_prepared_transactions: 0 } }),
      PostgresServer.start({ settings: { max_replication_slots: 1 } }),
    ]);
    for (const server of [good, plain, oneSlot]) server.psql('CREATE TABLE items (id int PRIMARY KEY, v text NOT NULL)');
    cluster = await ProcessCluster.start({ taskManagers: 1, slots: 2, config: { 'state.checkpoints.dir': join(mkdtempSync(join(tmpdir(), 'weir-pg-bad-')), 'checkpoints') } });
  });

  afterAll(async () => {
    await cluster?.stop();
    await Promise.all([good?.destroy(), plain?.destroy(), oneSlot?.destroy()]);
  });

  const url = (server: PostgresServer) => `jdbc:postgresql://127.0.0.1:${server.port}/postgres`;

  async function failureOf(job: string, args: string[]): Promise<string> {
    const run = await cluster.weir(['run', '--detached', writeJobFile(job), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FAILED', 'FINISHED', 'CANCELED'], 60_000);
    expect(details.summary!.status, details.failureCause).toBe('FAILED');
    return details.failureCause;
  }

  it('a wrong password', async () => {
    expect(await failureOf(SINK_ROWS, [url(good), 'items', PASSWORD_USER.user, 'wrong', 'AT_LEAST_ONCE', '10'])).toMatch(
      /PostgreSQL at 127\.0\.0\.1:\d+\/postgres refused user 'weir_password' .*password authentication failed.*check the username and password/,
    );
  });

  it('a missing table', async () => {
    expect(await failureOf(SINK_ROWS, [url(good), 'missing', 'postgres', '', 'EXACTLY_ONCE', '10'])).toMatch(/the PostgresSink's table missing does not exist in database 'postgres'/);
  });

  it('wal_level not logical', async () => {
    expect(await failureOf(CDC_DISCARD, [String(plain.port), 'postgres', 'items', 'weir_bad'])).toMatch(/wal_level is 'replica' on the PostgreSQL server .*set wal_level = logical/);
  });

  it('no free replication slot', async () => {
    oneSlot.psql("SELECT pg_create_logical_replication_slot('taken', 'pgoutput')");
    expect(await failureOf(CDC_DISCARD, [String(oneSlot.port), 'postgres', 'items', 'weir_no_room'])).toMatch(
      /cannot create replication slot 'weir_no_room' on .*all replication slots are in use.*drop slots no job uses .* or raise max_replication_slots/,
    );
  });

  it('a TRUNCATE of a captured table while streaming', async () => {
    good.psql('CREATE TABLE truncated (id int PRIMARY KEY)');
    good.psql('INSERT INTO truncated VALUES (1), (2)');
    const run = await cluster.weir(['run', '--detached', writeJobFile(CDC_DISCARD), '--', String(good.port), 'postgres', 'truncated', 'weir_truncated']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await until(async () => good.psql("SELECT active FROM pg_replication_slots WHERE slot_name = 'weir_truncated'"), (active) => active === 't', 60_000, 'the job streaming from its slot');
    good.psql('TRUNCATE truncated');
    const details = await waitForStatus(cluster.client, jobId, ['FAILED'], 60_000);
    expect(details.failureCause).toMatch(/table\(s\) public.truncated were truncated: a PostgresCdcSource cannot express TRUNCATE as row changes/);
    good.psql("SELECT pg_drop_replication_slot('weir_truncated')");
  });

  it('max_prepared_transactions = 0', async () => {
    expect(await failureOf(SINK_ROWS, [url(plain), 'items', 'postgres', '', 'EXACTLY_ONCE', '10'])).toMatch(/max_prepared_transactions is 0 .*ALTER SYSTEM SET max_prepared_transactions/);
  });

  it('a row that violates a constraint', async () => {
    good.psql("CREATE TABLE checked (id int PRIMARY KEY, v text NOT NULL CHECK (v <> 'row 7'))");
    expect(await failureOf(SINK_ROWS, [url(good), 'checked', 'postgres', '', 'EXACTLY_ONCE', '10'])).toMatch(/the record with key id=7 violates constraint checked_v_check of table checked/);
    expect(good.psql('SELECT count(*) FROM checked')).toBe('0');
  });

  it('a good job still runs on the same cluster', async () => {
    const run = await cluster.weir(['run', '--detached', writeJobFile(SINK_ROWS), '--', url(good), 'items', 'postgres', '', 'EXACTLY_ONCE', '500']);
    expect(run.code, run.stderr).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FAILED', 'FINISHED', 'CANCELED'], 60_000);
    expect(details.summary!.status, details.failureCause).toBe('FINISHED');
    expect(good.psql('SELECT count(*), min(id), max(id) FROM items')).toBe('500|0|499');
    expect(good.psql('SELECT count(*) FROM pg_prepared_xacts')).toBe('0');
  });
});
