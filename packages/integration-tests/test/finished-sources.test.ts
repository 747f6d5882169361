import { afterEach, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getJob, jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { expectedTwoRates, TWO_RATES } from './checkpoint-jobs.ts';

/** Checkpoints after some tasks finished (FLIP-147): the slow source of TWO_RATES ends long before the fast one. */
describe('checkpoints after a source finished', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function submit(fast: number): Promise<{ cluster: ProcessCluster; jobId: string; output: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'weir-finished-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    // 50 slow events at 100/s end after ~0.5 s; the fast source runs for fast/3000 s.
    const run = await cluster.weir(['run', '--detached', writeJobFile(TWO_RATES), '--', output, String(fast), '50', '300']);
    expect(run.code, run.stderr).toBe(0);
    return { cluster, jobId: jobIdFrom(run.stdout), output };
  }

  /** Polls until the slow source's subtask reported FINISHED while the job still runs. */
  async function slowSourceFinished(cluster: ProcessCluster, jobId: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const details = await getJob(cluster.client, jobId);
      const slow = details.vertices.find((v) => v.name === 'slow');
      if (slow?.subtasks.every((s) => s.state === 'FINISHED')) {
        expect(details.summary!.status).toBe('RUNNING');
        return;
      }
      if (Date.now() > deadline) throw new Error(`the slow source never finished: ${JSON.stringify(details.vertices.map((v) => [v.name, v.subtasks.map((s) => s.state)]))}\n${cluster.logs()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Polls until `count` more checkpoints than `after` completed. */
  async function checkpointsCompleted(cluster: ProcessCluster, jobId: string, after: number, count: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { checkpoints } = await listCheckpoints(cluster.client, jobId);
      if (checkpoints.filter((c) => c.status === 'COMPLETED' && Number(c.checkpointId) > after).length >= count) return;
      if (Date.now() > deadline) throw new Error(`no ${count} checkpoints completed after checkpoint ${after}: ${JSON.stringify(checkpoints.slice(0, 5))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const latestCompleted = async (cluster: ProcessCluster, jobId: string): Promise<number> => {
    const { checkpoints } = await listCheckpoints(cluster.client, jobId);
    return Math.max(0, ...checkpoints.filter((c) => c.status === 'COMPLETED').map((c) => Number(c.checkpointId)));
  };

  it('keeps checkpointing the running source and finishes with exactly the expected output', async () => {
    const { cluster, jobId, output } = await submit(9_000);
    await slowSourceFinished(cluster, jobId);
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 30_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expect(details.attempt).toBe(0);
    expect(readCommittedLines(output).sort()).toEqual(expectedTwoRates(9_000, 50));
    const { checkpoints } = await listCheckpoints(cluster.client, jobId);
    // The fast source's last events were committed by checkpoints taken after the slow source finished.
    expect(checkpoints.filter((c) => c.status === 'COMPLETED').length).toBeGreaterThan(2);
  });

  it('restores a checkpoint holding a finished source without running that source again', async () => {
    const { cluster, jobId, output } = await submit(15_000);
    await slowSourceFinished(cluster, jobId);
    // Two checkpoints triggered after the slow source finished: the one restored carries its state.
    const beforeFinish = await latestCompleted(cluster, jobId);
    await checkpointsCompleted(cluster, jobId, beforeFinish, 2);
    const victim = await cluster.killTaskManager();
    await new Promise((r) => setTimeout(r, 300));
    await cluster.startTaskManager();
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 40_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expect(details.attempt, `killed ${victim.name}`).toBeGreaterThanOrEqual(1);
    expect(readCommittedLines(output).sort()).toEqual(expectedTwoRates(15_000, 50));
    const { restoredFrom } = await listCheckpoints(cluster.client, jobId);
    expect(restoredFrom).toBeGreaterThan(beforeFinish);
  });
});
