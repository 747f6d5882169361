import { afterEach, describe, expect, it } from 'vitest';
import { diffLines } from '@weir/examples';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { enrichThroughKill } from './enrich-through-kill.ts';
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

    const lines = await enrichThroughKill(JOB, (output) => [output, String(EVENTS), '400', `${REDIS.host}:${REDIS.port}`, prefix, '400'], cleanups);
    const expected = Array.from({ length: EVENTS }, (_, i) => `${i} ${i * 5} in-order`);
    const { missing, extra } = diffLines([...lines].sort(), expected.sort());
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }).toEqual({ missing: [], extra: [], counts: [0, 0] });
    // The hanging first attempts timed out and were retried (more than once each for those the kill replayed).
    expect(Number(await redis.command('GET', `${prefix}:timeouts`))).toBeGreaterThanOrEqual(EVENTS / 200);
  });
});
