import { afterEach, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, getJob, jobIdFrom, logLines, ProcessCluster, savepointPathFrom, until, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { LEVEL_RUNNING_SUMS } from './level-jobs.ts';

/** An hour: no periodic checkpoint comes while the test runs, so every checkpoint it sees is one a restore brought forward. */
const INTERVAL_MS = 3_600_000;

describe('after a restore', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('reports the job RUNNING only after every subtask restored its state, and commits output at once rather than an interval later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-restore-order-'));
    const checkpoints = join(dir, 'checkpoints');
    const output = join(dir, 'out');
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.savepoints.dir': join(dir, 'savepoints') } });
    cleanups.push(() => cluster.stop());
    const job = writeJobFile(LEVEL_RUNNING_SUMS);
    const args = ['--', output, '1000000', '2000', String(INTERVAL_MS), checkpoints, 'true'];

    // A first run stopped with a savepoint: the second run restores it, so it has a checkpoint of its own at once.
    const first = await cluster.weir(['run', '--detached', job, ...args]);
    expect(first.code, first.stderr).toBe(0);
    const firstId = jobIdFrom(first.stdout);
    await waitForStatus(cluster.client, firstId, ['RUNNING']);
    const stop = await cluster.weir(['stop', firstId]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}`).toBe(0);

    const second = await cluster.weir(['run', '--detached', '-s', savepointPathFrom(stop), job, ...args]);
    expect(second.code, second.stderr).toBe(0);
    const jobId = jobIdFrom(second.stdout);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 1, 120_000);
    const committedBefore = readCommittedLines(output).length;

    await cluster.killTaskManager(cluster.liveTaskManagers[0]);
    await cluster.startTaskManager();
    const details = await until(() => getJob(cluster.client, jobId), (d) => d.attempt >= 1 && d.summary!.status === 'RUNNING', 120_000, 'the job running again after the kill');
    // The restored attempt's first checkpoint completes although the interval is an hour, and commits what it processed.
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 2, 120_000);
    await until(async () => readCommittedLines(output).length, (n) => n > committedBefore, 60_000, 'lines committed after the restore');

    // RUNNING means restored: the JobManager's RUNNING of the restored attempt comes no earlier than any subtask's "state restored".
    const running = logLines(cluster.jobManager.output).filter((l) => l.msg === 'job status changed' && l.fields.to === 'RUNNING' && l.fields.attempt === details.attempt);
    expect(running, cluster.logs()).toHaveLength(1);
    const restored = cluster.taskManagers.flatMap((tm) => logLines(tm.output)).filter((l) => l.msg === 'state restored' && l.fields.jobId === jobId && l.fields.attempt === details.attempt);
    const subtasks = details.vertices.reduce((n, v) => n + v.subtasks.length, 0);
    expect(restored.length, cluster.logs()).toBe(subtasks);
    const lastRestored = Math.max(...restored.map((l) => l.at));
    expect(running[0]!.at, `last restore at ${new Date(lastRestored).toISOString()}`).toBeGreaterThanOrEqual(lastRestored);

    const cancel = await cluster.weir(['cancel', jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
  });
});
