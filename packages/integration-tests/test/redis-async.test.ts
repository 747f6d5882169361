import { afterEach, describe, expect, it } from 'vitest';
import { diffLines, readCommittedLines } from '@weir/examples';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, waitForCheckpoints, waitForStatus } from '../src/index.ts';
import { RedisConnection } from './redis-client.ts';

const REDIS = { host: '127.0.0.1', port: 6379 };
const EVENTS = 3_000;
const JOB = fileURLToPath(new URL('./redis-enrich-job.ts', import.meta.url));

/**
 * Issue 26's async I/O acceptance against the Redis on this machine: an enrichment through
 * AsyncDataStream.orderedWaitWithRetry with per-attempt timeouts (a blocking BLPOP stands for a
 * lookup that hangs), a TaskManager SIGKILLed mid-run: every index enriched exactly once in
 * the committed output, and in order.
 */
describe('async I/O against Redis on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('enriches every index exactly once and in order through attempt timeouts and a TaskManager kill', async () => {
    const prefix = `weir-test-${randomUUID()}`;
    const redis = new RedisConnection(REDIS.host, REDIS.port);
    cleanups.push(async () => {
      await redis.command('DEL', `${prefix}:timeouts`);
      for (let i = 0; i < EVENTS; i += 500) await redis.command('DEL', ...Array.from({ length: Math.min(500, EVENTS - i) }, (_, k) => `${prefix}:${i + k}`));
      redis.close();
    });
    for (let i = 0; i < EVENTS; i += 500) {
      await redis.command('MSET', ...Array.from({ length: Math.min(500, EVENTS - i) }, (_, k) => [`${prefix}:${i + k}`, String((i + k) * 5)]).flat());
    }

    const dir = mkdtempSync(join(tmpdir(), 'weir-redis-async-'));
    const cluster = await ProcessCluster.start({ taskManagers: 1, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const run = await cluster.weir(['run', '--detached', JOB, '--', output, String(EVENTS), '400', `${REDIS.host}:${REDIS.port}`, prefix, '400']);
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

    const expected = Array.from({ length: EVENTS }, (_, i) => `${i} ${i * 5} in-order`);
    const { missing, extra } = diffLines([...readCommittedLines(output)].sort(), expected.sort());
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }).toEqual({ missing: [], extra: [], counts: [0, 0] });
    // The hanging first attempts timed out and were retried (more than once each for those the kill replayed).
    expect(Number(await redis.command('GET', `${prefix}:timeouts`))).toBeGreaterThanOrEqual(EVENTS / 200);
  });
});
