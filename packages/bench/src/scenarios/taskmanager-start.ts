import { ProcessCluster } from '@weir/integration-tests';
import { median } from '../stats.ts';
import type { Scenario } from '../scenario.ts';

const STARTS = 7;

/**
 * A TaskManager's start: from spawning `weir taskmanager` (node, the compiled CLI, config,
 * gRPC, the data server) to its log line "registered with the JobManager", against a running
 * JobManager. Each TaskManager is stopped before the next starts.
 */
export const taskManagerStart: Scenario = {
  name: 'taskmanager-start',
  description: `spawn of a TaskManager process to registered with the JobManager, ${STARTS} starts`,
  async run() {
    const cluster = await ProcessCluster.start({ taskManagers: 0, slots: 1 });
    const times: number[] = [];
    try {
      for (let i = 0; i < STARTS; i++) {
        const started = performance.now();
        const tm = await cluster.startTaskManager();
        times.push(performance.now() - started);
        await tm.stop();
      }
    } finally {
      await cluster.stop();
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      figures: { medianMs: median(times), minMs: sorted[0]!, maxMs: sorted.at(-1)! },
      rows: [
        ['median', median(times).toFixed(0), 'ms'],
        ['fastest', sorted[0]!.toFixed(0), 'ms'],
        ['slowest', sorted.at(-1)!.toFixed(0), 'ms'],
      ],
    };
  },
};
