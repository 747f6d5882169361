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
