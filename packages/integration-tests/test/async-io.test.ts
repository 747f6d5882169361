import { afterEach, describe, expect, it } from 'vitest';
import { diffLines, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { BURST, ENRICH, expectedEnriched, NEVER } from './async-io-jobs.ts';
import { enrichThroughKill } from './enrich-through-kill.ts';

const EVENTS = 3_000;

/**
 * The enrichment service: `GET /enrich?i=N` answers `{ v: 3N }` after 30 to 80 ms (slow enough that the
 * operator's queue of 20 is never empty when a checkpoint is taken, so the restored checkpoint
 * holds lookups in flight), except that
 * the first request for every index N with N % 200 = 7 never gets an answer (the job's attempt
 * aborts after 300 ms and is retried). It counts the requests per index.
 */
async function startEnrichmentServer(): Promise<{ url: string; requests: Map<number, number>; burst: { inFlight: number; maxInFlight: number }; stop: () => Promise<void> }> {
  const requests = new Map<number, number>();
  // `/burst` lookups in flight at once: what the async operator's capacity bounds.
  const burst = { inFlight: 0, maxInFlight: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const i = Number(url.searchParams.get('i'));
    if (url.pathname === '/burst') {
      burst.maxInFlight = Math.max(burst.maxInFlight, ++burst.inFlight);
      setTimeout(() => {
        burst.inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ v: i * 3 }));
      }, 5 + Math.floor(Math.random() * 10));
      return;
    }
    const seen = (requests.get(i) ?? 0) + 1;
    requests.set(i, seen);
    if (i % 200 === 7 && seen === 1) return;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ v: i * 3 }));
    }, 30 + Math.floor(Math.random() * 50));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    burst,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Issue 26 item 4, async I/O on a process cluster: an enrichment against a real HTTP server
 * with per-attempt timeouts and retries, through a SIGKILLed TaskManager (the in-flight lookups
 * of the restored checkpoint are made again): every index is enriched exactly once in the
 * committed output, and in order. An async operator chained behind a keyed function whose
 * timers fire all at once keeps at most its capacity of lookups in flight and gets each out
 * once. And an async function that never completes fails the job with the timeout error.
 */
describe('async I/O on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('enriches every record exactly once and in order through retries and a TaskManager kill (orderedWaitWithRetry)', async () => {
    const server = await startEnrichmentServer();
    cleanups.push(server.stop);
    const lines = await enrichThroughKill(writeJobFile(ENRICH), (output) => [output, String(EVENTS), '400', server.url, '400'], cleanups);
    const { missing, extra } = diffLines([...lines].sort(), [...expectedEnriched(EVENTS)].sort());
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }).toEqual({ missing: [], extra: [], counts: [0, 0] });
    // The hanging first requests were retried: the server saw every such index at least twice.
    const retried = [...server.requests].filter(([i]) => i % 200 === 7);
    expect(retried.length).toBe(EVENTS / 200);
    expect(retried.every(([, n]) => n >= 2)).toBe(true);
  });

  it('chained behind a burst of 2,000 timers: at most `capacity` lookups in flight, each key enriched once (unorderedWait)', async () => {
    const server = await startEnrichmentServer();
    cleanups.push(server.stop);
    const dir = mkdtempSync(join(tmpdir(), 'weir-async-burst-'));
    const cluster = await ProcessCluster.start({ taskManagers: 1, slots: 1, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const keys = 2_000;
    const run = await cluster.weir(['run', '--detached', writeJobFile(BURST), '--', output, String(keys), server.url]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    // Chained: the keyed function's timers feed the async operator directly.
    expect(details.vertices.map((v) => v.name)).toContain('KeyedProcess -> async wait operator -> Sink');
    expect(server.burst.maxInFlight).toBeGreaterThan(1);
    expect(server.burst.maxInFlight).toBeLessThanOrEqual(5);
    const lines = readCommittedLines(output);
    const expected = Array.from({ length: keys }, (_, i) => `${i} ${i * 3}`);
    const { missing, extra } = diffLines([...lines].sort(), expected.sort());
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }).toEqual({ missing: [], extra: [], counts: [0, 0] });
  });

  it('fails the job with ASYNC_TIMEOUT when the async function never completes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-async-never-'));
    const cluster = await ProcessCluster.start({ taskManagers: 1, slots: 1 });
    cleanups.push(() => cluster.stop());
    const run = await cluster.weir(['run', '--detached', writeJobFile(NEVER), '--', join(dir, 'out')]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 60_000);
    expect(details.summary!.status).toBe('FAILED');
    expect(details.failureCause).toContain('Async function call has timed out after 500 ms (input: 0)');
  });
});
