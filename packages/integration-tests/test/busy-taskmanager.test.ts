import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommittedLines } from '@weir/examples';
import type { JobDetails__Output } from '@weir/rpc';
import { jobIdFrom, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { BUSY_MAP } from './robustness-jobs.ts';

/*
 * Issue 15: a TaskManager whose event loop is busy (a long synchronous user function, a big
 * restore, a long GC) used to be declared lost after some 4 s: its data connections missed
 * their keepalive answers, the JobManager's probe over the control stream went unanswered,
 * and the job restarted. Now a thread of its own answers the JobManager's liveness probes
 * while the loop is busy, keepalives wait heartbeat.timeout, and the data it owes just
 * arrives late. Only a loop blocked for heartbeat.timeout loses the TaskManager, by that name.
 */
const RECORDS = 3_000;

describe('a TaskManager whose event loop is busy', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const allRecords = Array.from({ length: RECORDS }, (_, i) => `n ${i}`).sort();

  /** Runs BUSY_MAP, blocking for `blockMs`, on a cluster of one-slot TaskManagers to its end, which must be FINISHED with exact output. */
  async function runToEnd(taskManagers: number, config: Record<string, string>, blockMs: number): Promise<{ cluster: ProcessCluster; details: JobDetails__Output }> {
    const cluster = await ProcessCluster.start({ taskManagers, slots: 1, config });
    cleanups.push(() => cluster.stop());
    const work = mkdtempSync(join(tmpdir(), 'weir-busy-'));
    const output = join(work, 'out');
    const markers = join(work, 'markers');
    mkdirSync(markers);
    const args = [output, String(RECORDS), '500', '500', join(work, 'checkpoints'), String(blockMs), markers];
    const run = await cluster.weir(['run', '--detached', writeJobFile(BUSY_MAP, 'busy-map.ts'), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expect(readCommittedLines(output).sort()).toEqual(allRecords);
    return { cluster, details };
  }

  it('for 10 s, once on each TaskManager, is not lost with default heartbeat settings: the job finishes in its first attempt with exact output', async () => {
    // One slot each: the source's TaskManager feeds the other's Format subtask over the network.
    const { cluster, details } = await runToEnd(2, { 'heartbeat.interval': '10s', 'heartbeat.timeout': '50s' }, 10_000);
    expect(details.attempt, cluster.logs()).toBe(0);
    expect(cluster.jobManager.output).not.toMatch(/TaskManager tm-\d lost/);
    // Both blocks were seen by the liveness probes, and each ended.
    const blocked = cluster.jobManager.output.match(/event loop of TaskManager (tm-\d) blocked for/g) ?? [];
    expect(new Set(blocked).size, cluster.jobManager.output).toBe(2);
    expect(cluster.jobManager.output).toMatch(/event loop of TaskManager tm-\d runs again, after a block of at least (9|10)\.\d s/);
  });

  it('past heartbeat.timeout is lost, with the block as the cause, and the job recovers with exact output', async () => {
    // A spare TaskManager takes over the lost one's slot.
    const { cluster, details } = await runToEnd(3, { 'heartbeat.interval': '1s', 'heartbeat.timeout': '4s' }, 8_000);
    expect(details.attempt, cluster.logs()).toBeGreaterThanOrEqual(1);
    // Heartbeats stop when the block starts, or up to an interval before: the loss names the block so far.
    expect(cluster.jobManager.output).toMatch(/TaskManager tm-\d lost: event loop blocked for [345]\.\d s, (and no heartbeat for|past) heartbeat\.timeout \(4s\)/);
  });
});
