import { afterEach, describe, expect, it } from 'vitest';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { BACKPRESSURED_SUMS } from './unaligned-jobs.ts';

const RECORDS = 30_000;

describe('unaligned checkpoints on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function cluster(config: Record<string, string | number>): Promise<ProcessCluster> {
    const c = await ProcessCluster.start({ taskManagers: 2, slots: 2, config });
    cleanups.push(() => c.stop());
    return c;
  }

  // One job, with object reuse on, covers in-flight data of both kinds: with slot sharing the
  // keyBy channel source i -> sums i and the rebalance channel sums i -> slow i are local and hold
  // records as objects (encoded only when a checkpoint stores them), and the channels to the other
  // TaskManager hold encoded bytes, as every channel does with reuse off.
  it('gives exactly the expected running sums on a backpressured job while TaskManagers are SIGKILLed (object reuse on)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-unaligned-'));
    const c = await cluster({ 'state.checkpoints.dir': join(dir, 'checkpoints'), 'pipeline.object-reuse': 'true' });
    const output = join(dir, 'out');
    // The source offers 6000 records/s; the slow stage takes about 2 × 2000, so it backpressures the source throughout.
    const run = await c.weir(['run', '--detached', writeJobFile(BACKPRESSURED_SUMS), '--', output, String(RECORDS), '6000', '300', '0.5', '-1']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    const chaos = await killTaskManagersAtRandom(c, 2, 2_500, 3_000);
    const details = await waitForStatus(c.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, `${details.failureCause}\n${chaos.join('\n')}\n${c.logs()}`).toBe('FINISHED');
    expect(details.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);
    expect(readCommittedLines(output).sort(), chaos.join('\n')).toEqual(expectedRunningSums(RECORDS));
    const { checkpoints } = await listCheckpoints(c.client, jobId);
    const completed = checkpoints.filter((cp) => cp.status === 'COMPLETED');
    expect(completed.length).toBeGreaterThan(2);
    expect(completed.every((cp) => cp.unaligned), JSON.stringify(completed)).toBe(true);
    expect(completed.some((cp) => Number(cp.persistedBytes) > 0), JSON.stringify(completed)).toBe(true);
  });

  it('rejects unaligned checkpoints with AT_LEAST_ONCE at weir run, saying why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-unaligned-reject-'));
    const c = await cluster({ 'state.checkpoints.dir': join(dir, 'checkpoints') });
    const run = await c.weir(['run', writeJobFile(BACKPRESSURED_SUMS), '--', join(dir, 'out'), '100', '100', '300', '0', '-1', 'AT_LEAST_ONCE']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('unaligned checkpoints need checkpointing mode EXACTLY_ONCE, but the job runs AT_LEAST_ONCE');
  });
});
