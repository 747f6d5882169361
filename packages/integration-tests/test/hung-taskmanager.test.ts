import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import type { JobDetails__Output } from '@weir/rpc';
import { completedCount, getJob, jobIdFrom, ProcessCluster, waitForCheckpoints, WeirProcess, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';
import { ONE_WAY } from './robustness-jobs.ts';

/*
 * Issue 12 item 5: a hung TaskManager is noticed fast. With default heartbeat settings (10 s
 * interval, 50 s timeout) a SIGSTOPped TaskManager used to stall its job for the whole
 * heartbeat timeout. Now the JobManager probes every TaskManager's liveness endpoint each
 * heartbeat.probe-interval, and loses one that leaves two probes in a row unanswered within
 * heartbeat.probe-timeout: SIGSTOP stops the endpoint's thread too (issue 15: a TaskManager
 * whose event loop is only busy still answers, busy-taskmanager.test.ts).
 */
/** Polls until the job runs again in a later attempt; the milliseconds since `since`, or undefined after a minute. */
async function runningAgainAfter(cluster: ProcessCluster, jobId: string, since: number): Promise<number | undefined> {
  while (Date.now() - since < 60_000) {
    const now = await getJob(cluster.client, jobId);
    if (now.attempt >= 1 && now.summary!.status === 'RUNNING') return Date.now() - since;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/** The TaskManagers the job's subtasks of `vertex` (by name prefix) run on. */
function taskManagersOf(details: JobDetails__Output, vertex: string): Set<string> {
  return new Set(details.vertices.filter((v) => v.name.startsWith(vertex)).flatMap((v) => v.subtasks.map((s) => s.taskManagerId)));
}

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
    const runningAgainMs = await runningAgainAfter(cluster, jobId, Date.now());
    console.log(`SIGSTOP to RUNNING again: ${runningAgainMs} ms`);
    expect(runningAgainMs, cluster.logs()).toBeLessThan(10_000);
    expect(cluster.jobManager.output).toMatch(/TaskManager tm-1 lost: no answer to liveness probes \(2 in a row, each given 1s; the last: no answer within 1s\)/);

    // The zombie wakes up: it finds its JobManager gone, cancels its tasks and registers again.
    hung.kill('SIGCONT');
    expect(await run.exited, run.output + cluster.logs()).toBe(0);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(records));
    await hung.waitForOutput(/registered with the JobManager[\s\S]*registered with the JobManager/, 30_000);
    expect(run.output).toMatch(/is FAILING: attempt 0 failed: .*\[.*\]/);
  });
});

/*
 * The other way round: the hung TaskManager only reads from the live one (a source at
 * parallelism 1 feeding two subtasks over rebalance), so no consumer on the live one breaks.
 * The liveness probes find it all the same.
 */
describe('a hung TaskManager that only consumes', () => {
  let cluster: ProcessCluster;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({ taskManagers: 3, slots: 1, config: { 'heartbeat.interval': '10s', 'heartbeat.timeout': '50s' } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('is lost within seconds, the job runs again within 10 s on the spare, and the output is exact', async () => {
    const work = mkdtempSync(join(tmpdir(), 'weir-hung-consumer-'));
    const output = join(work, 'out');
    const records = 6_000;
    const run = new WeirProcess(
      'run',
      ['run', '-m', cluster.jobManagerAddress, writeJobFile(ONE_WAY, 'one-way.ts'), '--', output, String(records), '1000', '300', join(work, 'checkpoints')],
      join(work, 'run.log'),
    );
    await run.waitForOutput(/JobID [0-9a-f]{32}/);
    const jobId = jobIdFrom(run.output);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 1);
    const details = await getJob(cluster.client, jobId);
    const producers = taskManagersOf(details, 'numbers');
    const consumerOnly = [...taskManagersOf(details, 'Format')].filter((tm) => !producers.has(tm));
    expect([producers.size, consumerOnly.length], JSON.stringify(details.vertices)).toEqual([1, 1]);
    // ProcessCluster names TaskManager tm-N's process taskmanager-N.
    const hung = cluster.taskManagers.find((tm) => tm.name === `taskmanager-${consumerOnly[0]!.slice('tm-'.length)}`)!;

    hung.kill('SIGSTOP');
    const runningAgainMs = await runningAgainAfter(cluster, jobId, Date.now());
    console.log(`SIGSTOP of a consumer-only TaskManager to RUNNING again: ${runningAgainMs} ms`);
    expect(runningAgainMs, cluster.logs()).toBeLessThan(10_000);
    expect(cluster.jobManager.output).toContain(`TaskManager ${consumerOnly[0]} lost: no answer to liveness probes (2 in a row, each given 1s; the last: no answer within 1s)`);

    hung.kill('SIGCONT');
    expect(await run.exited, run.output + cluster.logs()).toBe(0);
    const lines = readCommittedLines(output).sort();
    expect(lines).toEqual(Array.from({ length: records }, (_, i) => `n ${i}`).sort());
  });
});
