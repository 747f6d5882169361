import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { completedCount, getJob, jobIdFrom, ProcessCluster, waitForCheckpoints, WeirProcess, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';

/*
 * Issue 12 item 5: a hung TaskManager is noticed fast. With default heartbeat settings (10 s
 * interval, 50 s timeout) a SIGSTOPped TaskManager used to stall its job for the whole
 * heartbeat timeout. Now the other TaskManager's data connections to it break within seconds
 * (keepalive), it reports the peer unreachable, the JobManager probes it, and loses it when it
 * does not answer within heartbeat.probe-timeout.
 */
describe('a hung TaskManager', () => {
  let cluster: ProcessCluster;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'heartbeat.interval': '10s', 'heartbeat.timeout': '50s' } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('is lost within seconds with default settings, the job runs again within 10 s, and the zombie is harmless after SIGCONT', async () => {
    const work = mkdtempSync(join(tmpdir(), 'weir-hung-'));
    const output = join(work, 'out');
    const records = 8_000;
    const run = new WeirProcess(
      'run',
      ['run', '-m', cluster.jobManagerAddress, writeJobFile(RUNNING_SUMS, 'sums.ts'), '--', output, String(records), '1000', '300', 'EXACTLY_ONCE', join(work, 'checkpoints')],
      join(work, 'run.log'),
    );
    await run.waitForOutput(/JobID [0-9a-f]{32}/);
    const jobId = jobIdFrom(run.output);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 1);
    const details = await getJob(cluster.client, jobId);
    const used = new Set(details.vertices.flatMap((v) => v.subtasks.map((s) => s.taskManagerId)));
    expect(used).toEqual(new Set(['tm-1', 'tm-2']));

    const hung = cluster.taskManagers[0]!;
    hung.kill('SIGSTOP');
    const stoppedAt = Date.now();
    let runningAgainMs: number | undefined;
    while (runningAgainMs === undefined && Date.now() - stoppedAt < 60_000) {
      const now = await getJob(cluster.client, jobId);
      if (now.attempt >= 1 && now.summary!.status === 'RUNNING') runningAgainMs = Date.now() - stoppedAt;
      else await new Promise((r) => setTimeout(r, 50));
    }
    console.log(`SIGSTOP to RUNNING again: ${runningAgainMs} ms`);
    expect(runningAgainMs, cluster.logs()).toBeLessThan(10_000);
    expect(cluster.jobManager.output).toMatch(/TaskManager tm-1 lost: no answer to a probe within 1s after TaskManager tm-2 could not reach it/);

    // The zombie wakes up: it finds its JobManager gone, cancels its tasks and registers again.
    hung.kill('SIGCONT');
    expect(await run.exited, run.output + cluster.logs()).toBe(0);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(records));
    await hung.waitForOutput(/registered with the JobManager[\s\S]*registered with the JobManager/, 30_000);
    expect(run.output).toMatch(/is FAILING: attempt 0 failed: .*\[.*\]/);
  });
});
