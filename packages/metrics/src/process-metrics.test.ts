import { describe, expect, it } from 'vitest';
import { ProcessMetrics } from './process-metrics.ts';

describe('ProcessMetrics', () => {
  it('samples memory, garbage collections, event-loop delay and CPU time', async () => {
    const metrics = new ProcessMetrics();
    try {
      // Some garbage, and a blocked event loop.
      let keep = 0;
      for (let i = 0; i < 200_000; i++) keep += { i, s: `x${i}` }.s.length;
      // The busy loop's end is taken after the timer: on a loaded machine the timer itself can take tens of ms.
      await new Promise((resolve) => setTimeout(resolve, 10));
      const blockedUntil = Date.now() + 100;
      while (Date.now() < blockedUntil);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const sample = metrics.sample();
      expect(keep).toBeGreaterThan(0);
      expect(sample.heapUsedBytes).toBeGreaterThan(0);
      expect(sample.heapMaxBytes).toBeGreaterThan(sample.heapUsedBytes);
      expect(sample.rssBytes).toBeGreaterThan(sample.heapUsedBytes);
      expect(sample.eventLoopDelayMaxMs).toBeGreaterThanOrEqual(30);
      expect(sample.cpuUserMs).toBeGreaterThan(0);
      expect(sample.gcCount).toBeGreaterThanOrEqual(0);
      // The delay histogram starts again after each sample.
      expect(metrics.sample().eventLoopDelayMaxMs).toBeLessThan(sample.eventLoopDelayMaxMs);
    } finally {
      metrics.close();
    }
  });
});
