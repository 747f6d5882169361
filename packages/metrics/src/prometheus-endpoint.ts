import { createServer, type Server } from 'node:http';
import { parsePortRange, WeirError } from '@weir/common';
import type { Registry } from 'prom-client';
import { MetricsErrorCode } from './errors.ts';
import { promClientModule } from './prom-client-module.ts';

export interface PrometheusEndpoint {
  /** The port `/metrics` is served on: the first free one of the range. */
  readonly port: number;
  readonly registry: Registry;
  close(): Promise<void>;
}

/**
 * A registry with the Node process metrics (prom-client's defaults: heap, RSS, GC time,
 * event-loop delay, CPU), for the process's own metrics to be added to.
 */
export function processRegistry(): Registry {
  const { collectDefaultMetrics, Registry } = promClientModule();
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * Serves `registry` as `GET /metrics` in the Prometheus text format on the first port of
 * `range` (`9249` or `9249-9260`, metrics.reporter.prom.port) that can be bound on `host`, as
 * Flink's PrometheusReporter does, so several processes on one machine share a range.
 * `beforeScrape` runs first on every scrape: it registers metrics whose names are known only
 * then (`DynamicGauges`).
 */
export async function startPrometheusEndpoint(range: string, host: string, registry: Registry, beforeScrape?: () => void): Promise<PrometheusEndpoint> {
  const ports = parsePortRange(range);
  if (ports === undefined) throw new WeirError(MetricsErrorCode.METRICS_PORT_UNAVAILABLE, `metrics.reporter.prom.port '${range}' is not a port or a range such as 9249-9260`);
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Prometheus metrics are at GET /metrics\n');
      return;
    }
    try {
      beforeScrape?.();
    } catch (err) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`collecting metrics failed: ${String(err)}\n`);
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`collecting metrics failed: ${String(err)}\n`),
    );
  });
  const failures: string[] = [];
  for (let port = ports.first; port <= ports.last; port++) {
    try {
      await listen(server, host, port);
      return { port, registry, close: () => new Promise((resolve) => server.close(() => resolve())) };
    } catch (err) {
      failures.push(`${port}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
  throw new WeirError(
    MetricsErrorCode.METRICS_PORT_UNAVAILABLE,
    `cannot serve Prometheus metrics on ${host}: no port of metrics.reporter.prom.port ${range} is free (${failures.join(', ')}); widen the range or free a port`,
  );
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
