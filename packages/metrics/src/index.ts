export * from './task-metrics.ts';
