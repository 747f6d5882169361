import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

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
