import type { TaskMetricsSnapshot } from '@weir/common';

/** What each task metric means: the help text of its Prometheus series. */
export const TASK_METRIC_HELP = {
  numRecordsIn: 'Records this subtask has received.',
  numRecordsOut: 'Records this subtask has sent.',
  numBytesIn: 'Bytes this subtask has received.',
  numBytesOut: 'Bytes this subtask has sent.',
  numRecordsInPerSecond: 'Records received per second.',
  numRecordsOutPerSecond: 'Records sent per second.',
  numBytesInPerSecond: 'Bytes received per second.',
  numBytesOutPerSecond: 'Bytes sent per second.',
  busyTimeMsPerSecond: 'Milliseconds per second the subtask processed records (neither idle nor back-pressured).',
  backPressuredTimeMsPerSecond: 'Milliseconds per second the subtask waited for output capacity.',
  idleTimeMsPerSecond: 'Milliseconds per second the subtask waited for input.',
  accumulatedBusyTimeMs: 'Milliseconds the subtask has been busy since it started.',
  accumulatedBackPressuredTimeMs: 'Milliseconds the subtask has been back-pressured since it started.',
  accumulatedIdleTimeMs: 'Milliseconds the subtask has been idle since it started.',
  inputQueueLength: 'Buffers received and not yet processed.',
  outputQueueLength: 'Buffers produced and not yet sent.',
  inPoolUsage: 'Input buffers in use, as a share of the credit granted.',
  outPoolUsage: 'Output buffers queued, as a share of what stops the subtask.',
  currentInputWatermark: 'The input watermark of the subtask (ms since the epoch); -Inf before the first.',
} as const satisfies Record<keyof TaskMetricsSnapshot, string>;

export type TaskMetricName = keyof typeof TASK_METRIC_HELP;

/** Flink's back pressure levels: a subtask back-pressured under 10% of the time is OK, over 50% HIGH. */
export const BackPressureLevel = {
  OK: 'ok',
  LOW: 'low',
  HIGH: 'high',
} as const;
export type BackPressureLevel = (typeof BackPressureLevel)[keyof typeof BackPressureLevel];

/** The level of a back-pressured ratio (0..1), with Flink's thresholds. */
export function backPressureLevel(ratio: number): BackPressureLevel {
  if (ratio > 0.5) return BackPressureLevel.HIGH;
  if (ratio > 0.1) return BackPressureLevel.LOW;
  return BackPressureLevel.OK;
}
