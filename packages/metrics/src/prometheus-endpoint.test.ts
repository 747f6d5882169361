import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { processRegistry, startPrometheusEndpoint } from './prometheus-endpoint.ts';
import { scrapedGauges } from './gauges.ts';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the Prometheus endpoint', () => {
  it('serves the process metrics and scraped gauges at /metrics, on the next free port of the range', async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    const registry = processRegistry();
    let count = 1;
    scrapedGauges(registry, 'weir_test', { numRecordsOut: 'records out' }, ['task_name'], () => [{ labels: { task_name: 'map' }, values: { numRecordsOut: count++ } }]);
    const endpoint = await startPrometheusEndpoint(`${port}-${port + 5}`, '127.0.0.1', registry);
    try {
      expect(endpoint.port).toBeGreaterThan(port);
      const first = await (await fetch(`http://127.0.0.1:${endpoint.port}/metrics`)).text();
      expect(first).toContain('weir_test_numRecordsOut{task_name="map"} 1');
      expect(first).toContain('process_resident_memory_bytes');
      expect(first).toContain('nodejs_heap_size_used_bytes');
      const second = await (await fetch(`http://127.0.0.1:${endpoint.port}/metrics`)).text();
      expect(second).toContain('weir_test_numRecordsOut{task_name="map"} 2');
      expect((await fetch(`http://127.0.0.1:${endpoint.port}/other`)).status).toBe(404);
    } finally {
      await endpoint.close();
      taken.close();
    }
  });

  it('asks for a token when authentication is on, and serves a scrape that shows one', async () => {
    const port = await freePort();
    const authenticate = async (authorization: string | undefined) => {
      if (authorization !== 'Bearer viewer-token') throw new Error(authorization === undefined ? 'this cluster needs a token' : 'the token is not one this cluster knows');
    };
    const endpoint = await startPrometheusEndpoint(String(port), '127.0.0.1', processRegistry(), { authenticate });
    try {
      const url = `http://127.0.0.1:${endpoint.port}/metrics`;
      const anonymous = await fetch(url);
      expect([anonymous.status, anonymous.headers.get('www-authenticate'), await anonymous.text()]).toEqual([401, 'Bearer', 'this cluster needs a token\n']);
      const wrong = await fetch(url, { headers: { authorization: 'Bearer guess' } });
      expect([wrong.status, await wrong.text()]).toEqual([401, 'the token is not one this cluster knows\n']);
      // Nothing is told about paths without a token either.
      expect((await fetch(`http://127.0.0.1:${endpoint.port}/other`)).status).toBe(401);
      const viewer = await fetch(url, { headers: { authorization: 'Bearer viewer-token' } });
      expect(viewer.status).toBe(200);
      expect(await viewer.text()).toContain('process_resident_memory_bytes');
    } finally {
      await endpoint.close();
    }
  });

  it('fails naming the range when no port of it is free', async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      await expect(startPrometheusEndpoint(String(port), '127.0.0.1', processRegistry())).rejects.toMatchObject({
        code: 'METRICS_PORT_UNAVAILABLE',
        message: expect.stringContaining(`no port of metrics.reporter.prom.port ${port} is free (${port}: EADDRINUSE)`),
      });
    } finally {
      taken.close();
    }
  });
});
