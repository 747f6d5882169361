import { TaskState } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { checkpointingCluster, settle } from '../testing/checkpointing-cluster.ts';
import { jobMetrics } from './job-metrics.ts';

describe('jobMetrics', () => {
  it("gives uptime, downtime, restarts and checkpoint figures with Flink's meanings", async () => {
    const c = checkpointingCluster({ 'tm-1': 2, 'tm-2': 2 }, { restartStrategy: { kind: 'fixed-delay', attempts: 3, delayMs: 500 } });
    c.reportAll(TaskState.RUNNING);
    c.clock.advance(1_000);
    await c.ackAll(1);
    await settle();
    expect(jobMetrics(c.master, c.clock.now())).toEqual({
      uptime: 1_000,
      downtime: 0,
      numRestarts: 0,
      lastCheckpointDuration: 0,
      lastCheckpointSize: 24,
      lastCheckpointFullSize: 60,
      lastCheckpointRestoreTimestamp: -1,
      numberOfCompletedCheckpoints: 1,
      numberOfFailedCheckpoints: 0,
      numberOfInProgressCheckpoints: 0,
      totalNumberOfCheckpoints: 1,
    });
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    c.clock.advance(200);
    expect(jobMetrics(c.master, c.clock.now())).toMatchObject({ uptime: 0, downtime: 200 });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(500);
    await settle();
    // Down until every subtask of the new attempt restored its state and runs.
    c.clock.advance(100);
    expect(jobMetrics(c.master, c.clock.now())).toMatchObject({ uptime: 0, downtime: 800 });
    c.reportAll(TaskState.RUNNING);
    expect(jobMetrics(c.master, c.clock.now() + 300)).toMatchObject({ uptime: 300, downtime: 0, numRestarts: 1, lastCheckpointRestoreTimestamp: 2_700 });
  });
});
