import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffLines, readCommittedLines } from '@weir/examples';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { expectedAllRowWindows, expectedTopKeys, expectedTopRows, expectedTotals, expectedWindows, materialize, SQL_JOB, windowDirs } from './sql-jobs.ts';

const ROWS = 12_000;

/**
 * A TaskManager plans the SQL again when it builds the job's graph, on its event loop: the
 * first parse of each statement shape warms dt-sql-parser's ANTLR caches, 1-5 s of CPU per
 * process on this shared machine (see packages/sql/README.md). The tests' usual 5 s
 * heartbeat.timeout would call a TaskManager lost meanwhile; the default is 50 s. A killed
 * TaskManager is still found at once by its unanswered liveness probes.
 */
const CLUSTER = { taskManagers: 2, slots: 2, config: { 'heartbeat.timeout': 20_000 } };
const RATE = 1_500;

/**
 * A Flink SQL job (StreamTableEnvironment in a job module, submitted with weir run) at
 * parallelism 2 on two TaskManagers: TUMBLE, HOP and CUMULATE window aggregations and window Top-Ns into
 * filesystem tables and an unbounded GROUP BY as a changelog, each compared with a reference computed here without
 * the SQL engine; then the same with TaskManagers SIGKILLed, and stopped with a savepoint and
 * resumed from it at another parallelism: the committed output is the same. And weir sql -f.
 */
describe('Flink SQL on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The committed output of both tables against the references. */
  function expectCommitted(windows: string, changelog: string, log: string): void {
    const dirs = windowDirs(windows);
    for (const [dir, expected] of [
      [dirs.tumble, expectedWindows(ROWS)],
      [dirs.hop, expectedAllRowWindows(ROWS, 'hop')],
      [dirs.cumulate, expectedAllRowWindows(ROWS, 'cumulate')],
      [dirs.topRows, expectedTopRows(ROWS)],
      [dirs.topKeys, expectedTopKeys(ROWS)],
    ] as const) {
      const { missing, extra } = diffLines(readCommittedLines(dir).sort(), expected);
      expect({ dir, missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }, log).toEqual({ dir, missing: [], extra: [], counts: [0, 0] });
    }
    const lines = readCommittedLines(changelog);
    expect(lines.every((l) => /^(\+I|-U|\+U)\[/.test(l)), lines.slice(0, 5).join('\n')).toBe(true);
    // An update is a retraction and the new row: thousands of them, not a row per key.
    expect(lines.filter((l) => l.startsWith('-U')).length).toBeGreaterThan(1_000);
    const table = materialize(lines);
    expect(table.wrongCounts, log).toEqual([]);
    expect(table.rows, log).toEqual(expectedTotals(ROWS));
  }

  async function runSqlJob(kills: number): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sql-'));
    const cluster = await ProcessCluster.start(CLUSTER);
    cleanups.push(() => cluster.stop());
    const windows = join(dir, 'windows');
    const changelog = join(dir, 'changelog');
    const args = [windows, changelog, String(ROWS), String(RATE), '400', join(dir, 'checkpoints'), '2'];
    const run = await cluster.weir(['run', '--detached', writeJobFile(SQL_JOB), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const chaos = kills > 0 ? await killTaskManagersAtRandom(cluster, kills, 2_500, 3_000) : [];
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
    expect(details.summary!.status, `${details.failureCause}\n${chaos.join('\n')}\n${cluster.logs()}`).toBe('FINISHED');
    if (kills > 0) expect(details.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);

    expectCommitted(windows, changelog, chaos.join('\n'));
    if (kills > 0) expect(completedCount((await listCheckpoints(cluster.client, jobId)).checkpoints)).toBeGreaterThan(3);
  }

  it('weir sql -f submits a script\'s INSERT as a job; a mistake in it is reported with line, column and suggestion, and nothing is submitted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sql-script-'));
    const cluster = await ProcessCluster.start(CLUSTER);
    cleanups.push(() => cluster.stop());
    const script = (column: string) => `
      CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000');
      CREATE TABLE evens (id BIGINT, label STRING, quarter DECIMAL(10, 2), sec BIGINT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'csv');
      INSERT INTO evens
      SELECT id, UPPER(CONCAT('k', CAST(id % 3 AS STRING))), CAST(${column} AS DECIMAL(10, 2)) / 4, EXTRACT(SECOND FROM TO_TIMESTAMP_LTZ(id, 0))
      FROM numbers WHERE id % 2 = 0;`;
    const bad = join(dir, 'bad.sql');
    writeFileSync(bad, script('idd'));
    const refused = await cluster.weir(['sql', '-f', bad, '-d']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("SQL error at line 5, column 67: Column 'idd' not found in any table; did you mean 'id'?");
    expect((await cluster.weir(['list'])).stdout).not.toMatch(/[0-9a-f]{32}/);

    const good = join(dir, 'good.sql');
    writeFileSync(good, script('id'));
    const run = await cluster.weir(['sql', '-f', good, '-d', '-p', '2']);
    expect(run.code, run.stderr).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, details.failureCause).toBe('FINISHED');
    const expected = Array.from({ length: 500 }, (_, i) => (i + 1) * 2).map((id) => `${id},K${id % 3},${(id / 4).toFixed(2)},${id % 60}`);
    expect(readCommittedLines(join(dir, 'out')).sort()).toEqual(expected.sort());
  });

  it('commits the TUMBLE, HOP and CUMULATE aggregations, the window Top-Ns and the GROUP BY changelog a reference computes', async () => {
    await runSqlJob(0);
  });

  it('commits the same with TaskManagers SIGKILLed during the run (exactly-once)', async () => {
    await runSqlJob(2);
  });

  it('stops the SQL job with a savepoint and resumes it from there at parallelism 1: the same output (uids from the statements)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sql-savepoint-'));
    const cluster = await ProcessCluster.start(CLUSTER);
    cleanups.push(() => cluster.stop());
    const windows = join(dir, 'windows');
    const changelog = join(dir, 'changelog');
    const args = (parallelism: number) => [windows, changelog, String(ROWS), String(RATE), '400', join(dir, 'checkpoints'), String(parallelism)];
    const job = writeJobFile(SQL_JOB);
    const first = await cluster.weir(['run', '--detached', job, '--', ...args(2)]);
    expect(first.code, first.stderr).toBe(0);
    const firstId = jobIdFrom(first.stdout);
    await waitForStatus(cluster.client, firstId, ['RUNNING']);
    await waitForCheckpoints(cluster.client, firstId, (cps) => completedCount(cps) >= 3, 60_000);
    const stop = await cluster.weir(['stop', '-p', join(dir, 'savepoints'), firstId]);
    expect(stop.code, `${stop.stderr}\n${cluster.logs()}`).toBe(0);
    expect((await waitForStatus(cluster.client, firstId, ['FINISHED', 'FAILED', 'CANCELED'])).summary!.status).toBe('FINISHED');
    // Stopped part-way: some windows are committed, the rest are in the savepoint's state.
    const before = readCommittedLines(windowDirs(windows).tumble).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(expectedWindows(ROWS).length);

    const second = await cluster.weir(['run', '--detached', '-s', savepointPathFrom(stop), job, '--', ...args(1)]);
    expect(second.code, `${second.stderr}\n${cluster.logs()}`).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(second.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expectCommitted(windows, changelog, '');
  });
});
