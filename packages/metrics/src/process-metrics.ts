import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { ProcessMetricsSnapshot } from '@weir/common';

/**
 * Samples the process: memory, GC (a PerformanceObserver adds up every collection), the
 * event-loop delay (a histogram reset at each sample) and CPU time. `close()` stops observing.
 */
export class ProcessMetrics {
  readonly #delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  readonly #gc: PerformanceObserver;
  #gcCount = 0;
  #gcTimeMs = 0;

  constructor() {
    this.#delay.enable();
    this.#gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        this.#gcCount++;
        this.#gcTimeMs += entry.duration;
      }
    });
    this.#gc.observe({ entryTypes: ['gc'] });
  }

  sample(): ProcessMetricsSnapshot {
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    const delay = this.#delay;
    // The histogram is in nanoseconds; with no sample yet its mean is NaN.
    const ms = (ns: number): number => (Number.isFinite(ns) ? ns / 1e6 : 0);
    const snapshot: ProcessMetricsSnapshot = {
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      heapMaxBytes: getHeapStatistics().heap_size_limit,
      rssBytes: memory.rss,
      externalBytes: memory.external,
      gcCount: this.#gcCount,
      gcTimeMs: this.#gcTimeMs,
      eventLoopDelayMeanMs: ms(delay.mean),
      eventLoopDelayP99Ms: ms(delay.percentile(99)),
      eventLoopDelayMaxMs: ms(delay.max),
      cpuUserMs: cpu.user / 1_000,
      cpuSystemMs: cpu.system / 1_000,
      uptimeMs: process.uptime() * 1_000,
    };
    delay.reset();
    return snapshot;
  }

  close(): void {
    this.#delay.disable();
    this.#gc.disconnect();
  }
}
