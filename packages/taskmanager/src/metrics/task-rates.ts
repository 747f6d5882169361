import type { TaskMetricsSnapshot } from '@weir/common';
import type { TaskMetricsSample } from '@weir/runtime';

/** A sample and when it was taken. */
export interface TimedSample {
  readonly sample: TaskMetricsSample;
  readonly atMs: number;
}

/**
 * A task's metrics from two samples: counts and queues as of `current`, rates per second
 * between the two (none yet without `previous`). Busy time is the share of the interval the
 * task was neither idle nor back-pressured, as Flink defines it.
 */
export function toSnapshot(previous: TimedSample | undefined, current: TimedSample): TaskMetricsSnapshot {
  const s = current.sample;
  const seconds = previous === undefined ? 0 : (current.atMs - previous.atMs) / 1_000;
  const rate = (name: 'numRecordsIn' | 'numRecordsOut' | 'numBytesIn' | 'numBytesOut'): number =>
    seconds <= 0 ? 0 : Math.max(0, s[name] - previous!.sample[name]) / seconds;
  const perSecond = (name: 'idleTimeMs' | 'backPressuredTimeMs'): number =>
    seconds <= 0 ? 0 : Math.min(1_000, Math.max(0, s[name] - previous!.sample[name]) / seconds);
  const idle = perSecond('idleTimeMs');
  const backPressured = perSecond('backPressuredTimeMs');
  const runningSeconds = seconds <= 0 ? 0 : Math.min(seconds, Math.max(0, s.runningTimeMs - previous!.sample.runningTimeMs) / 1_000);
  return {
    numRecordsIn: s.numRecordsIn,
    numRecordsOut: s.numRecordsOut,
    numBytesIn: s.numBytesIn,
    numBytesOut: s.numBytesOut,
    numRecordsInPerSecond: rate('numRecordsIn'),
    numRecordsOutPerSecond: rate('numRecordsOut'),
    numBytesInPerSecond: rate('numBytesIn'),
    numBytesOutPerSecond: rate('numBytesOut'),
    // A task that ran for only part of the interval was busy for at most that part.
    busyTimeMsPerSecond: seconds <= 0 ? 0 : Math.max(0, (runningSeconds / seconds) * 1_000 - idle - backPressured),
    backPressuredTimeMsPerSecond: backPressured,
    idleTimeMsPerSecond: idle,
    accumulatedBusyTimeMs: Math.max(0, s.runningTimeMs - s.idleTimeMs - s.backPressuredTimeMs),
    accumulatedBackPressuredTimeMs: s.backPressuredTimeMs,
    accumulatedIdleTimeMs: s.idleTimeMs,
    inputQueueLength: s.inputQueueLength,
    outputQueueLength: s.outputQueueLength,
    inPoolUsage: s.inPoolUsage,
    outPoolUsage: s.outPoolUsage,
    currentInputWatermark: s.currentInputWatermark,
  };
}
