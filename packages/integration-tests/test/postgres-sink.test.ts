import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedRunningSums, diffLines } from '@weir/examples';
import { PostgresServer, postgresAvailable } from '@weir/postgres-server';
import { completedCount, jobIdFrom, kafkaEvidence, listCheckpoints, ProcessCluster, savepointPathFrom, waitForStatus, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS_INTO_POSTGRES } from './postgres-jobs.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Issue 29's sink acceptance on a process cluster and a PostgreSQL instance of our own: the
 * running-sums job (p=2 on 2 TaskManagers) writes its lines through the EXACTLY_ONCE
 * PostgresSink into a table without a key; TaskManagers are SIGKILLed (once right after a
 * checkpoint completed, before its COMMIT PREPARED reached the server) and PostgreSQL is
 * stopped and started mid-run; and the job is stopped with a savepoint at p=2 and resumed at
 * p=3. psql, not the sink's code, reads the table: each line exactly once, and no prepared
 * transaction left behind.
 */
describe.skipIf(!postgresAvailable())('PostgresSink exactly-once on a process cluster', () => {
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

  async function cluster(env: Record<string, string>): Promise<ProcessCluster> {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      const c = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(mkdtempSync(join(tmpdir(), 'weir-pg-')), 'checkpoints') } });
      cleanups.push(() => c.stop());
      return c;
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }

  async function nextCompletedCheckpoint(c: ProcessCluster, jobId: string): Promise<void> {
    const before = completedCount((await listCheckpoints(c.client, jobId)).checkpoints);
    while (completedCount((await listCheckpoints(c.client, jobId)).checkpoints) <= before) await sleep(50);
  }

  it('TaskManagers SIGKILLed (once between a completed checkpoint and its COMMIT PREPARED) and PostgreSQL stopped and started: each line once, no prepared transaction left', async () => {
    server.psql('CREATE TABLE sums (line text NOT NULL)');
    // Commits reach the server 1 s after their checkpoint completed: a kill right after completion lands before the commit.
    const c = await cluster({ TEST_POSTGRES_COMMIT_DELAY_MS: '1000' });
    const total = 15_000;
    const steps: string[] = [];
    const t0 = Date.now();
    const step = (what: string) => steps.push(`${Date.now() - t0} ms: ${what}`);
    const run = await c.weir(['run', '--detached', '-p', '2', writeJobFile(RUNNING_SUMS_INTO_POSTGRES), '--', `jdbc:postgresql://127.0.0.1:${server.port}/postgres`, String(total), '1500', '500']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    step('running');

    await sleep(1_500 + Math.random() * 1_000);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[Math.floor(Math.random() * 2)])).name}`);
    await c.startTaskManager();
    await waitForStatus(c.client, jobId, ['RUNNING']);
    await nextCompletedCheckpoint(c, jobId);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[0])).name} right after a checkpoint completed`);
    await c.startTaskManager();
    await waitForStatus(c.client, jobId, ['RUNNING']);
    await nextCompletedCheckpoint(c, jobId);
    const prepared = server.psql('SELECT count(*) FROM pg_prepared_xacts');
    await server.stop();
    step(`PostgreSQL stopped with ${prepared} prepared transactions`);
    await sleep(1_500);
    await server.restart();
    step('PostgreSQL started');

    const details = await waitForStatus(c.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 150_000);
    step(`job ${details.summary!.status} after ${details.attempt} restarts`);
    const evidence = kafkaEvidence(c, steps);
    expect(details.summary!.status, `${details.failureCause}\n${evidence}`).toBe('FINISHED');
    expect(details.attempt, evidence).toBeGreaterThanOrEqual(2);
    const lines = server.psql('SELECT line FROM sums ORDER BY line').split('\n');
    const expected = expectedRunningSums(total);
    expect(lines.length, `${JSON.stringify(diffLines(lines, expected)).slice(0, 2000)}\n${evidence}`).toBe(total);
    expect(lines, evidence).toEqual(expected);
    expect(server.psql('SELECT count(*) FROM pg_prepared_xacts')).toBe('0');
  });

  it('stopped with a savepoint at p=2 and resumed from it at p=3: each line once, no prepared transaction left', async () => {
    server.psql('CREATE TABLE IF NOT EXISTS sums (line text NOT NULL)');
    server.psql('TRUNCATE sums');
    const c = await cluster({});
    const total = 6_000;
    const job = writeJobFile(RUNNING_SUMS_INTO_POSTGRES);
    const args = ['--', `jdbc:postgresql://127.0.0.1:${server.port}/postgres`, String(total), '1500', '500'];
    const first = await c.weir(['run', '--detached', '-p', '2', job, ...args]);
    expect(first.code, first.stderr).toBe(0);
    const firstId = jobIdFrom(first.stdout);
    await waitForStatus(c.client, firstId, ['RUNNING']);
    await nextCompletedCheckpoint(c, firstId);
    const stop = await c.weir(['stop', '--savepointPath', join(mkdtempSync(join(tmpdir(), 'weir-pg-sp-')), 'savepoints'), firstId]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${c.logs()}`).toBe(0);
    const written = Number(server.psql('SELECT count(*) FROM sums'));
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(total);

    const second = await c.weir(['run', '--detached', '-p', '3', '-s', savepointPathFrom(stop), job, ...args]);
    expect(second.code, second.stderr).toBe(0);
    const details = await waitForStatus(c.client, jobIdFrom(second.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, details.failureCause).toBe('FINISHED');
    const lines = server.psql('SELECT line FROM sums ORDER BY line').split('\n');
    const expected = expectedRunningSums(total);
    expect(lines.length, JSON.stringify(diffLines(lines, expected)).slice(0, 2000)).toBe(total);
    expect(lines).toEqual(expected);
    expect(server.psql('SELECT count(*) FROM pg_prepared_xacts')).toBe('0');
  });
});
