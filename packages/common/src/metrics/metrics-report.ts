import type { SubtaskKey } from '../subtask-key.ts';

/**
 * The metrics a TaskManager reports to the JobManager on the control stream, as both roles
 * see them (the wire form and its codec are in @weir/rpc, `src/control/metrics-codec.ts`).
 */

/**
 * A subtask's metrics with Flink's names (TaskIOMetricGroup and the task's time metrics): what
 * a TaskManager samples from its tasks, sends to the JobManager and exports to Prometheus.
 * Counts are since the subtask started; rates are per second over the last sampling interval.
 */
export interface TaskMetricsSnapshot {
  readonly numRecordsIn: number;
  readonly numRecordsOut: number;
  readonly numBytesIn: number;
  readonly numBytesOut: number;
  readonly numRecordsInPerSecond: number;
  readonly numRecordsOutPerSecond: number;
  readonly numBytesInPerSecond: number;
  readonly numBytesOutPerSecond: number;
  /** Share of each second spent on records, waiting for output capacity, and waiting for input, in ms (they add up to about 1000). */
  readonly busyTimeMsPerSecond: number;
  readonly backPressuredTimeMsPerSecond: number;
  readonly idleTimeMsPerSecond: number;
  /** Totals since the subtask started (Flink's accumulated-*-time of a vertex). */
  readonly accumulatedBusyTimeMs: number;
  readonly accumulatedBackPressuredTimeMs: number;
  readonly accumulatedIdleTimeMs: number;
  /** Buffers received and not yet processed, and buffers produced and not yet sent. */
  readonly inputQueueLength: number;
  readonly outputQueueLength: number;
  /** Those queues as a share (0..1) of what they may hold before the producer stops. */
  readonly inPoolUsage: number;
  readonly outPoolUsage: number;
  /** The subtask's input watermark, ms since the epoch; -Infinity before the first. */
  readonly currentInputWatermark: number;
}

/** A Node process's health as the REST API shows a TaskManager's (Flink's Status.JVM.* for Node). */
export interface ProcessMetricsSnapshot {
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  /** The heap limit (--max-old-space-size). */
  readonly heapMaxBytes: number;
  readonly rssBytes: number;
  readonly externalBytes: number;
  /** Garbage collections and the time they took since the process started. */
  readonly gcCount: number;
  readonly gcTimeMs: number;
  /** Event-loop delay since the previous sample: how late timers and I/O callbacks ran. */
  readonly eventLoopDelayMeanMs: number;
  readonly eventLoopDelayP99Ms: number;
  readonly eventLoopDelayMaxMs: number;
  /** CPU time since the process started. */
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly uptimeMs: number;
}

/**
 * One operator of a subtask's chain and its metrics (Flink's operator scope): the built-in ones
 * (numRecordsIn, numRecordsOut, their rates, the watermarks) and what user functions
 * registered, by Flink's name below the operator scope ('myCounter', 'city.berlin.hits',
 * 'latency_p99'); a histogram as its statistics, a meter as its rate.
 */
export interface OperatorMetricsSnapshot {
  readonly operatorId: string;
  readonly operatorName: string;
  readonly metrics: readonly { readonly name: string; readonly value: number }[];
}

/**
 * Flink's MetricQueryService filter for the names its REST API gives: ' ', '.', ':' and ','
 * become '_', so that '.' only separates scope components ('Source: events' is
 * 'Source__events' in '0.Source__events.numRecordsOut').
 */
export function queryName(part: string): string {
  return part.replace(/[ .:,]/g, '_');
}

/** One subtask's entry in a report. */
export interface SubtaskMetricsReport {
  readonly task: SubtaskKey;
  readonly metrics: TaskMetricsSnapshot;
  /** Its chain's operators, head first. */
  readonly operators: readonly OperatorMetricsSnapshot[];
}

/** What a TaskManager sends the JobManager every metrics.fetcher.update-interval. */
export interface TaskManagerMetricsReport {
  readonly process: ProcessMetricsSnapshot;
  /** Its running subtasks, and those that ended since the last report (their final counts). */
  readonly tasks: readonly SubtaskMetricsReport[];
}
