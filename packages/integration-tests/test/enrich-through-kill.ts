import { expect } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, waitForCheckpoints, waitForStatus } from '../src/index.ts';

/**
 * The run both enrichment tests make (async-io.test.ts over HTTP, redis-async.test.ts over
 * Redis): the job on a new cluster of one TaskManager, that TaskManager SIGKILLed after three
 * completed checkpoints and a new one started; the job must FINISH on a later attempt.
 * Returns the committed output lines. `args` gets the output directory.
 */
export async function enrichThroughKill(jobFile: string, args: (output: string) => string[], cleanups: Array<() => Promise<void>>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'weir-enrich-'));
  const cluster = await ProcessCluster.start({ taskManagers: 1, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
  cleanups.push(() => cluster.stop());
  const output = join(dir, 'out');
  const run = await cluster.weir(['run', '--detached', jobFile, '--', ...args(output)]);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const jobId = jobIdFrom(run.stdout);
  await waitForStatus(cluster.client, jobId, ['RUNNING']);
  await waitForCheckpoints(cluster.client, jobId, (cps) => completedCount(cps) >= 3, 60_000);
  const victim = cluster.liveTaskManagers[0]!;
  await cluster.killTaskManager(victim);
  await sleep(300);
  await cluster.startTaskManager();
  const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
  expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
  expect(details.attempt, `${victim.name} was SIGKILLed`).toBeGreaterThanOrEqual(1);
  expect(completedCount((await listCheckpoints(cluster.client, jobId)).checkpoints)).toBeGreaterThan(3);
  return readCommittedLines(output);
}
