import { createRequire } from 'node:module';

type PromClient = typeof import('prom-client');

const require = createRequire(import.meta.url);
let promClient: PromClient | undefined;

/**
 * prom-client, loaded when a process first serves Prometheus metrics: loading it (with the
 * OpenTelemetry API it pulls in, some 90 modules) cost every TaskManager and JobManager 25 ms
 * or more of its start, with or without a Prometheus endpoint.
 */
export function promClientModule(): PromClient {
  return (promClient ??= require('prom-client') as PromClient);
}
