import { describe, expect, it, vi } from 'vitest';
import { CheckpointFailureReason } from '@weir/common';
import { pipeline } from '../testing/cluster.ts';
import type { JobCheckpointHa } from '../ha/leader-ha.ts';
import { CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import { writeCheckpoint } from './checkpoint-writer.ts';
import { FinishedTaskState } from './finished-task-state.ts';
import { PendingCheckpoint } from './pending-checkpoint.ts';

describe('writeCheckpoint', () => {
  it('does not register a checkpoint in etcd behind a newer one that completed meanwhile', async () => {
    const store = new CompletedCheckpointStore(1);
    const register = vi.fn(async () => undefined);
    const ha: JobCheckpointHa = { available: () => true, nextId: () => 3, mayWrite: () => true, register };
    const deps = { jobId: 'job-1', jobGraph: pipeline, storage: undefined, ha, numRetained: 1, store, finishedTasks: new FinishedTaskState(pipeline, store, undefined) };
    store.add({ checkpointId: 2, timestamp: 0, metadata: { version: 1, kind: 'checkpoint', jobId: 'job-1', jobName: 'test job', checkpointId: 2, timestamp: 0, operators: [] }, externalPath: '' });

    const outcome = await writeCheckpoint(deps, new PendingCheckpoint(1, 0, 0, []), []);

    expect(outcome).toEqual({ kind: 'failed', reason: CheckpointFailureReason.SUBSUMED, message: 'checkpoint 2 completed while its _metadata was being written' });
    expect(register).not.toHaveBeenCalled();
    await writeCheckpoint(deps, new PendingCheckpoint(3, 0, 0, []), []);
    expect(register).toHaveBeenCalledWith(3, '', 0, 3);
  });
});
