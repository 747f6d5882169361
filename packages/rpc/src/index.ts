export * from './proto.ts';
export * from './errors.ts';
export * from './messages.ts';
export { decodeMetricsReport, encodeMetricsReport } from './control/metrics-codec.ts';
export * from './control/checkpoint-codec.ts';
export * from './control/task-key-codec.ts';
export * from './control/checkpoint-options.ts';
export * from './control/operator-event-codec.ts';
