export * from './task-metrics.ts';
export * from './errors.ts';
export { processRegistry, startPrometheusEndpoint, type PrometheusEndpoint, type PrometheusEndpointOptions, type PrometheusTls } from './prometheus-endpoint.ts';
export { scrapedGauges, type Labels, type Series } from './gauges.ts';
export { ProcessMetrics } from './process-metrics.ts';
export { DynamicGauges, type NamedValue } from './dynamic-gauges.ts';
export * from './operator-metrics.ts';
