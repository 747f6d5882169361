import { afterEach, describe, expect, it } from 'vitest';
import { diffLines, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { expectedWindowedCounts, WINDOWED_COUNTS } from './window-jobs.ts';

const RECORDS = 16_000;
const RATE = 2_000;

/**
 * Event-time windows exactly-once under failure: tumbling counts and session windows over an
 * out-of-order, rate-limited generator, p=2 on two TaskManagers that are SIGKILLed at random.
 * Window contents and timers are restored from the checkpoints; the committed output must be
 * exactly what a run without failure commits: every window and session once, with its count.
 */
describe('exactly-once event-time windows under SIGKILLed TaskManagers', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.each([
    ['heap state', 'heap'],
    ['LevelDB with incremental checkpoints', 'level-incremental'],
  ])('fires every tumbling window and session once, with the right count: %s', async (_name, backend) => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-window-eo-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.backend.rocksdb.localdir': join(dir, 'local') } });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const args = [output, String(RECORDS), String(RATE), '400', backend, join(dir, 'checkpoints')];
    const run = await cluster.weir(['run', '--detached', writeJobFile(WINDOWED_COUNTS), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const chaos = await killTaskManagersAtRandom(cluster, 2, 2_500, 3_000);
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
    expect(details.summary!.status, `${details.failureCause}\n${chaos.join('\n')}\n${cluster.logs()}`).toBe('FINISHED');
    expect(details.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);
    const { missing, extra } = diffLines(readCommittedLines(output).sort(), expectedWindowedCounts(RECORDS));
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }, chaos.join('\n')).toEqual({
      missing: [],
      extra: [],
      counts: [0, 0],
    });
    const history = await listCheckpoints(cluster.client, jobId);
    expect(completedCount(history.checkpoints)).toBeGreaterThan(3);
  });
});
