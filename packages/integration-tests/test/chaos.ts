import { diffLines, readCommittedLines } from '@weir/examples';
import { expect } from 'vitest';
import { completedCount, jobIdFrom, listCheckpoints, waitForStatus, writeJobFile, type ProcessCluster } from '../src/index.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * SIGKILLs a random live TaskManager `kills` times, the first after `firstMs`, then every
 * `spacingMs` (each ±40% at random), and starts a replacement after each kill, as compose's
 * restart policy would. Returns what it did, for the failure message of a test.
 */
export async function killTaskManagersAtRandom(cluster: ProcessCluster, kills: number, firstMs: number, spacingMs: number): Promise<string[]> {
  const log: string[] = [];
  const started = Date.now();
  for (let k = 0; k < kills; k++) {
    const base = k === 0 ? firstMs : spacingMs;
    await sleep(base * (0.6 + 0.8 * Math.random()));
    const live = cluster.liveTaskManagers;
    const victim = live[Math.floor(Math.random() * live.length)]!;
    await cluster.killTaskManager(victim);
    log.push(`${Date.now() - started} ms: SIGKILL ${victim.name}`);
    await sleep(300);
    const replacement = await cluster.startTaskManager();
    log.push(`${Date.now() - started} ms: started ${replacement.name}`);
  }
  return log;
}

/**
 * Runs `job` detached with `args` on `cluster`, SIGKILLs two TaskManagers at random while it
 * runs, and checks that it finished after a restart with more than 3 completed checkpoints and
 * committed exactly `expected` (sorted) to `output`: what a run without failure commits.
 */
export async function expectExactlyOnceUnderKills(cluster: ProcessCluster, job: string, args: string[], output: string, expected: string[]): Promise<void> {
  const run = await cluster.weir(['run', '--detached', writeJobFile(job), '--', ...args]);
  expect(run.code, run.stderr).toBe(0);
  const jobId = jobIdFrom(run.stdout);
  await waitForStatus(cluster.client, jobId, ['RUNNING']);
  const chaos = await killTaskManagersAtRandom(cluster, 2, 2_500, 3_000);
  const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
  expect(details.summary!.status, `${details.failureCause}\n${chaos.join('\n')}\n${cluster.logs()}`).toBe('FINISHED');
  expect(details.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);
  const { missing, extra } = diffLines(readCommittedLines(output).sort(), expected);
  expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }, chaos.join('\n')).toEqual({
    missing: [],
    extra: [],
    counts: [0, 0],
  });
  const history = await listCheckpoints(cluster.client, jobId);
  expect(completedCount(history.checkpoints)).toBeGreaterThan(3);
}
