import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffLines, readCommittedLines } from '@weir/examples';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { expectedTotals, expectedWindows, materialize, SQL_JOB } from './sql-jobs.ts';

const ROWS = 12_000;
const RATE = 1_500;

/**
 * A Flink SQL job (StreamTableEnvironment in a job module, submitted with weir run) at
 * parallelism 2 on two TaskManagers: a TUMBLE window aggregation into a filesystem table and
 * an unbounded GROUP BY as a changelog, each compared with a reference computed here without
 * the SQL engine; then the same with TaskManagers SIGKILLed: the committed output is the same.
 */
describe('Flink SQL on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function runSqlJob(kills: number): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sql-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2 });
    cleanups.push(() => cluster.stop());
    const windows = join(dir, 'windows');
    const changelog = join(dir, 'changelog');
    const args = [windows, changelog, String(ROWS), String(RATE), '400', join(dir, 'checkpoints')];
    const run = await cluster.weir(['run', '--detached', writeJobFile(SQL_JOB), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const chaos = kills > 0 ? await killTaskManagersAtRandom(cluster, kills, 2_500, 3_000) : [];
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
    expect(details.summary!.status, `${details.failureCause}\n${chaos.join('\n')}\n${cluster.logs()}`).toBe('FINISHED');
    if (kills > 0) expect(details.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);

    const { missing, extra } = diffLines(readCommittedLines(windows).sort(), expectedWindows(ROWS));
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }, chaos.join('\n')).toEqual({ missing: [], extra: [], counts: [0, 0] });

    const lines = readCommittedLines(changelog);
    expect(lines.every((l) => /^(\+I|-U|\+U)\[/.test(l)), lines.slice(0, 5).join('\n')).toBe(true);
    // An update is a retraction and the new row: thousands of them, not a row per key.
    expect(lines.filter((l) => l.startsWith('-U')).length).toBeGreaterThan(1_000);
    const table = materialize(lines);
    expect(table.wrongCounts, chaos.join('\n')).toEqual([]);
    expect(table.rows).toEqual(expectedTotals(ROWS));
    if (kills > 0) expect(completedCount((await listCheckpoints(cluster.client, jobId)).checkpoints)).toBeGreaterThan(3);
  }

  it('commits the TUMBLE aggregation and the GROUP BY changelog a reference computes', async () => {
    await runSqlJob(0);
  });

  it('commits the same with TaskManagers SIGKILLed during the run (exactly-once)', async () => {
    await runSqlJob(2);
  });
});
