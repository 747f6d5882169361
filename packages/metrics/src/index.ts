export * from './task-metrics.ts';
export * from './errors.ts';
export { processRegistry, startPrometheusEndpoint, type PrometheusEndpoint } from './prometheus-endpoint.ts';
export { scrapedGauges, type Labels, type Series } from './gauges.ts';
export { ProcessMetrics } from './process-metrics.ts';
export { DynamicGauges, type NamedValue } from './dynamic-gauges.ts';
export * from './operator-metrics.ts';
