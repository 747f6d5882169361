import type { TaskManagerMetricsReport } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { toJobManager } from '../testing/over-the-wire.ts';
import { decodeMetricsReport, encodeMetricsReport } from './metrics-codec.ts';

const REPORT: TaskManagerMetricsReport = {
  process: {
    heapUsedBytes: 12_345_678,
    heapTotalBytes: 20_000_000,
    heapMaxBytes: 4_345_298_944,
    rssBytes: 98_765_432,
    externalBytes: 1_234,
    gcCount: 17,
    gcTimeMs: 42.5,
    eventLoopDelayMeanMs: 10.25,
    eventLoopDelayP99Ms: 21.5,
    eventLoopDelayMaxMs: 33,
    cpuUserMs: 1_500.5,
    cpuSystemMs: 300,
    uptimeMs: 65_000,
  },
  tasks: [
    {
      task: { jobId: 'f'.repeat(32), attempt: 2, vertexId: 'v-1', subtaskIndex: 1 },
      metrics: {
        numRecordsIn: 9_007_199_254_740_991,
        numRecordsOut: 0,
        numBytesIn: 123_456_789_012,
        numBytesOut: 0,
        numRecordsInPerSecond: 1_234.5,
        numRecordsOutPerSecond: 0,
        numBytesInPerSecond: 99_999.25,
        numBytesOutPerSecond: 0,
        busyTimeMsPerSecond: 512.5,
        backPressuredTimeMsPerSecond: 400,
        idleTimeMsPerSecond: 87.5,
        accumulatedBusyTimeMs: 10_000,
        accumulatedBackPressuredTimeMs: 8_000,
        accumulatedIdleTimeMs: 2_000,
        inputQueueLength: 3,
        outputQueueLength: 0,
        inPoolUsage: 0.75,
        outPoolUsage: 0,
        currentInputWatermark: Number.NEGATIVE_INFINITY,
      },
      operators: [
        { operatorId: 'op-1', operatorName: 'Source: events', metrics: [{ name: 'numRecordsOut', value: 9_007_199_254_740_991 }, { name: 'currentOutputWatermark', value: Number.NEGATIVE_INFINITY }] },
        { operatorId: 'op-2', operatorName: 'map', metrics: [{ name: 'city.berlin.hits', value: 7 }, { name: 'latency_p99', value: 12.25 }] },
      ],
    },
  ],
};

describe('the metrics report codec', () => {
  it('carries every figure exactly through the Connect stream, -Infinity watermarks and counts up to 2^53 included', () => {
    const received = toJobManager({ metricsReport: encodeMetricsReport(REPORT) });
    expect(received.kind).toBe('metricsReport');
    expect(decodeMetricsReport(received.metricsReport!)).toEqual(REPORT);
  });

  it('refuses a report without process metrics or with an entry that names no subtask', () => {
    const received = toJobManager({ metricsReport: { tasks: [] } });
    expect(decodeMetricsReport(received.metricsReport!)).toBe('a metrics report without process metrics');
    const nameless = toJobManager({ metricsReport: { ...encodeMetricsReport(REPORT), tasks: [{ numRecordsIn: 1 }] } });
    expect(decodeMetricsReport(nameless.metricsReport!)).toBe('a metrics report entry that names no subtask');
  });

  it('refuses an operator entry without an operator ID or with a metric without a name', () => {
    const encoded = encodeMetricsReport(REPORT);
    const task = encoded.tasks![0]!;
    const noId = toJobManager({ metricsReport: { ...encoded, tasks: [{ ...task, operators: [{ operatorName: 'map', metrics: [] }] }] } });
    expect(decodeMetricsReport(noId.metricsReport!)).toBe('a metrics report entry of an operator without an operator ID');
    const noName = toJobManager({ metricsReport: { ...encoded, tasks: [{ ...task, operators: [{ operatorId: 'op-2', metrics: [{ value: 1 }] }] }] } });
    expect(decodeMetricsReport(noName.metricsReport!)).toBe('a metrics report entry of operator op-2 with a metric without a name');
  });
});
