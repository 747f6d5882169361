import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { completedCount, jobIdFrom, ProcessCluster, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { LEVEL_RUNNING_SUMS } from './level-jobs.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/** Every LevelDB directory (`.../db`) below `root`, relative to it. */
function databases(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (entry.name === 'db') found.push(relative(root, join(dir, entry.name)));
      else walk(join(dir, entry.name));
    }
  };
  walk(root);
  return found.sort();
}

describe('LevelDB working directories of TaskManagers sharing state.backend.rocksdb.localdir', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("a TaskManager started after another was SIGKILLed removes the dead one's DBs, never a live one's; tasks that end remove theirs, a stopped TaskManager its directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-local-dirs-'));
    const local = join(dir, 'local');
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 1, config: { 'state.backend.rocksdb.localdir': local } });
    cleanups.push(() => cluster.stop());
    // Parallelism 2, one keyed (LevelDB) subtask per TaskManager; long enough to outlive the kill.
    const run = await cluster.weir(['run', '--detached', writeJobFile(LEVEL_RUNNING_SUMS), '--', join(dir, 'out'), '400000', '1000', '300', join(dir, 'checkpoints'), 'false']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    const completed = await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) > 0);
    expect(databases(local)).toHaveLength(2);
    const beforeKill = Math.max(...completed.map((c) => Number(c.checkpointId)));

    await cluster.killTaskManager(cluster.taskManagers[0]);
    await cluster.startTaskManager();
    const restarted = await waitForStatus(cluster.client, jobId, ['RUNNING'], 60_000);
    expect(restarted.attempt).toBeGreaterThanOrEqual(1);
    // A checkpoint after the restart: both subtasks have opened their new DBs.
    await waitForCheckpoints(cluster.client, jobId, (c) => c.some((k) => k.status === 'COMPLETED' && Number(k.checkpointId) > beforeKill + 1));
    // The dead TaskManager's DB goes in the background of the new one's start; give it a moment.
    const deadline = Date.now() + 10_000;
    while (databases(local).length > 2 && Date.now() < deadline) await sleep(200);
    expect(databases(local), cluster.logs()).toHaveLength(2);

    const cancel = await cluster.weir(['cancel', jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    await waitForStatus(cluster.client, jobId, ['CANCELED']);
    expect(databases(local)).toEqual([]);

    await cluster.stop();
    expect(readdirSync(local)).toEqual([]);
  });
});
