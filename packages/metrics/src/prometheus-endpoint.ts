import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
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

/** A server certificate and key (PEM) that may be replaced while the endpoint runs: @weir/security's PemSource fits. */
export interface PrometheusTls {
  readonly current: { readonly cert: Buffer; readonly key: Buffer };
  /** Calls `listener` with the new pair after a rotation; returns what stops it. */
  onChange(listener: (material: { readonly cert: Buffer; readonly key: Buffer }) => void): () => void;
}

export interface PrometheusEndpointOptions {
  /** Runs first on every scrape: registers metrics whose names are known only then (`DynamicGauges`). */
  readonly beforeScrape?: () => void;
  /** With the cluster's authentication on: rejects a scrape without a token of any role, with the reason the 401 says. */
  readonly authenticate?: (authorization: string | undefined) => Promise<void>;
  /** HTTPS with this certificate (metrics.reporter.prom.ssl.enabled); connections after a rotation get the new one. */
  readonly tls?: PrometheusTls;
}

/**
 * Serves `registry` as `GET /metrics` in the Prometheus text format on the first port of
 * `range` (`9249` or `9249-9260`, metrics.reporter.prom.port) that can be bound on `host`, as
 * Flink's PrometheusReporter does, so several processes on one machine share a range.
 * With `authenticate` (the cluster's authentication is on), a scrape must show a token of any
 * role in `Authorization: Bearer …` (Prometheus's `authorization` scrape setting): the
 * metrics name every job and TaskManager. With `tls` it is HTTPS only (Prometheus's
 * `scheme: https`), so that token does not cross the network in clear; Flink's reporter has
 * neither.
 */
export async function startPrometheusEndpoint(range: string, host: string, registry: Registry, options: PrometheusEndpointOptions = {}): Promise<PrometheusEndpoint> {
  const { beforeScrape, authenticate, tls } = options;
  const ports = parsePortRange(range);
  if (ports === undefined) throw new WeirError(MetricsErrorCode.METRICS_PORT_UNAVAILABLE, `metrics.reporter.prom.port '${range}' is not a port or a range such as 9249-9260`);
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    if (authenticate === undefined) {
      serve(request.method, request.url, response);
      return;
    }
    authenticate(request.headers.authorization).then(
      () => serve(request.method, request.url, response),
      (err: unknown) => response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end(`${(err as Error).message ?? String(err)}\n`),
    );
  };
  const server = tls === undefined ? createServer(handler) : httpsServer(tls, handler);
  const serve = (method: string | undefined, url: string | undefined, response: ServerResponse): void => {
    if (method !== 'GET' || (url ?? '').split('?')[0] !== '/metrics') {
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
  };
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

/** An HTTPS server whose certificate follows `tls`: a plain-HTTP request to it fails the TLS handshake. */
function httpsServer(tls: PrometheusTls, handler: (request: IncomingMessage, response: ServerResponse) => void): Server {
  const server = createHttpsServer({ cert: tls.current.cert, key: tls.current.key }, handler);
  const stop = tls.onChange((material) => server.setSecureContext({ cert: material.cert, key: material.key }));
  server.once('close', stop);
  return server as unknown as Server;
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
