import { describe, expect, it } from 'vitest';
import { JobStatus, TaskState } from '@weir/common';
import type { ExternalizedCheckpointCleanup } from '@weir/api';
import { checkpointingCluster, settle } from '../testing/checkpointing-cluster.ts';

const END = {
  FINISHED: (c: ReturnType<typeof checkpointingCluster>) => c.reportAll(TaskState.FINISHED),
  CANCELED: (c: ReturnType<typeof checkpointingCluster>) => {
    c.dispatcher.cancel('job-1');
    c.reportAll(TaskState.CANCELED);
  },
  FAILED: (c: ReturnType<typeof checkpointingCluster>) => {
    c.report('job-1', 'tm-1', 'sink#0', TaskState.FAILED, { cause: 'disk full' });
    c.reportAll(TaskState.CANCELED);
  },
} as const;

describe('checkpoint retention when the job ends', () => {
  it.each([
    ['NO_EXTERNALIZED_CHECKPOINTS', 'FINISHED', false],
    ['NO_EXTERNALIZED_CHECKPOINTS', 'CANCELED', false],
    ['NO_EXTERNALIZED_CHECKPOINTS', 'FAILED', false],
    ['DELETE_ON_CANCELLATION', 'FINISHED', false],
    ['DELETE_ON_CANCELLATION', 'CANCELED', false],
    ['DELETE_ON_CANCELLATION', 'FAILED', true],
    ['RETAIN_ON_CANCELLATION', 'FINISHED', true],
    ['RETAIN_ON_CANCELLATION', 'CANCELED', true],
    ['RETAIN_ON_CANCELLATION', 'FAILED', true],
  ] as const)('with %s a %s job keeps its checkpoints: %s', async (cleanup: ExternalizedCheckpointCleanup, status, kept) => {
    const c = checkpointingCluster({ 'tm-1': 2, 'tm-2': 2 }, { checkpointing: { externalizedCleanup: cleanup, numRetained: 2 } });
    c.reportAll(TaskState.RUNNING);
    for (const id of [1, 2, 3]) {
      c.clock.advance(1_000);
      await c.ackAll(id);
      await settle();
    }
    END[status](c);
    expect(c.master.status).toBe(JobStatus[status]);
    await settle();
    const directories = [...new Set(c.storage.paths().map((p) => p.split('/').slice(0, 2).join('/')))];
    expect(directories).toEqual(kept ? ['job-1/chk-2', 'job-1/chk-3'] : []);
    expect(c.storage.log.includes('deleteDirectory job-1')).toBe(!kept);
    expect(c.master.checkpoints().checkpoints.map((cp) => cp.retained)).toEqual(kept ? [true, true, false] : [false, false, false]);
  });
});
