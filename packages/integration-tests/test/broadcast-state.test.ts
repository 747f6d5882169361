import { afterEach, describe, expect, it } from 'vitest';
import { diffLines, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { completedCount, getJob, jobIdFrom, listCheckpoints, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { BROADCAST_AS_KEYED, BROADCAST_RULES, expectedBroadcastRules } from './broadcast-state-jobs.ts';

const EVENTS = 9_000;

/**
 * Issue 26 item 4, the broadcast state pattern on a process cluster: rules broadcast to a keyed
 * event stream change every epoch while the job runs; a TaskManager is SIGKILLed at p=2 (the
 * job restores its latest checkpoint, broadcast state included, on every subtask), then the job
 * is stopped with a savepoint and resumed from it at p=3, where the third subtask gets a copy
 * of the broadcast state it never had. The committed output holds each event exactly once,
 * with its epoch's rule and its key's running sum.
 */
describe('broadcast state through a TaskManager kill and a rescale', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('applies every rule change exactly once per event, p=2 with a SIGKILL, then stop-with-savepoint and p=3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-broadcast-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 3, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const job = writeJobFile(BROADCAST_RULES);
    // At p=2 events 300/s (1.2 epochs/s) and rules 3/s: the rules run ahead, so after the kill, and on the third
    // subtask after the rescale, events find their rules only in the restored broadcast state (a subtask without
    // it would hold those events back for good). At p=3 the rest runs fast.
    const args = (eventRate: number, ruleRate: number) => ['--', output, String(EVENTS), String(eventRate), String(ruleRate), '400'];

    const first = await cluster.weir(['run', '--detached', '-p', '2', job, ...args(300, 3)]);
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0);
    const jobId = jobIdFrom(first.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    await waitForCheckpoints(cluster.client, jobId, (cps) => completedCount(cps) >= 2, 30_000);
    const victim = cluster.liveTaskManagers[0]!;
    await cluster.killTaskManager(victim);
    await sleep(300);
    await cluster.startTaskManager();
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    // Checkpoints completed after the restart: the restored broadcast state was snapshotted again by every subtask.
    const before = completedCount((await listCheckpoints(cluster.client, jobId)).checkpoints);
    await waitForCheckpoints(cluster.client, jobId, (cps) => completedCount(cps) >= before + 2, 60_000);
    const stop = await cluster.weir(['stop', '--savepointPath', join(dir, 'savepoints'), jobId]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${cluster.logs()}`).toBe(0);
    const details = await getJob(cluster.client, jobId);
    expect(details.attempt, `${victim.name} was SIGKILLed`).toBeGreaterThanOrEqual(1);
    const committedAtP2 = readCommittedLines(output).length;
    expect(committedAtP2, 'the p=2 runs committed part of the output').toBeGreaterThan(0);
    expect(committedAtP2).toBeLessThan(EVENTS);

    const last = await cluster.weir(['run', '-p', '3', '-s', savepointPathFrom(stop), job, ...args(3_000, 50)], { timeoutMs: 120_000 });
    expect(last.code, `${last.stdout}\n${last.stderr}\n${cluster.logs()}`).toBe(0);
    expect(last.stdout).toContain('FINISHED');
    const rescaled = (await getJob(cluster.client, jobIdFrom(last.stdout))).vertices.find((v) => v.operators.some((o) => o.uid === 'apply-rules'))!;
    expect(rescaled.parallelism).toBe(3);

    const { missing, extra } = diffLines(readCommittedLines(output).sort(), expectedBroadcastRules(EVENTS));
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }).toEqual({ missing: [], extra: [], counts: [0, 0] });
  });

  it('fails the job with BROADCAST_STATE_MISUSED when a function asks for its broadcast state as keyed state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-broadcast-misuse-'));
    const cluster = await ProcessCluster.start({ taskManagers: 1, slots: 1 });
    cleanups.push(() => cluster.stop());
    const run = await cluster.weir(['run', '--detached', writeJobFile(BROADCAST_AS_KEYED), '--', join(dir, 'out')]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 60_000);
    expect(details.summary!.status).toBe('FAILED');
    expect(details.failureCause).toContain("getMapState('rules') of operator 'Co-Process-Broadcast-Keyed' names its broadcast state 'rules', which is not keyed state");
  });
});
