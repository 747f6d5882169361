import { describe, expect, it } from 'vitest';
import { CheckpointFailureReason, TaskState } from '@weir/common';
import { cluster, pipeline } from '../testing/cluster.ts';
import { jobSpec } from '../testing/fixtures.ts';
import { checkpointingCluster, runningCheckpointingJob as running, settle } from '../testing/checkpointing-cluster.ts';

/** Whether each trigger sent so far asked for a full checkpoint. */
const fullFlags = (c: ReturnType<typeof running>): boolean[] =>
  c.gateway.sent.filter((m) => m.message.triggerCheckpoint).map((m) => m.message.triggerCheckpoint!.options?.full === true);

describe('on-demand checkpoints (JobMaster.triggerCheckpoint)', () => {
  it('triggers at once, long before the interval, and resolves with the ID and path once it completed', async () => {
    const c = running({ checkpointing: { intervalMs: 3_600_000 } });
    const checkpoint = c.master.triggerCheckpoint(false);
    expect(c.triggers()).toEqual(['1 src#0@tm-1', '1 src#1@tm-2']);
    expect(fullFlags(c)).toEqual([false, false]);
    await c.ackAll(1);
    await settle();
    await expect(checkpoint).resolves.toEqual({ checkpointId: 1, path: 'memory://cp/job-1/chk-1' });
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({ checkpointId: 1, status: 'COMPLETED' });
  });

  it('sends full: true to the tasks for a FULL checkpoint', () => {
    const c = running({ checkpointing: { intervalMs: 3_600_000 } });
    void c.master.triggerCheckpoint(true).catch(() => undefined);
    expect(fullFlags(c)).toEqual([true, true]);
  });

  it('rejects with CHECKPOINT_FAILED and the reason when the checkpoint fails', async () => {
    const c = running({ checkpointing: { intervalMs: 3_600_000, tolerableFailures: 5 } });
    const checkpoint = c.master.triggerCheckpoint(false);
    c.decline(1, 'map#1', CheckpointFailureReason.DECLINED, 'no');
    await expect(checkpoint).rejects.toMatchObject({ code: 'CHECKPOINT_FAILED', message: expect.stringContaining('checkpoint 1 failed: CHECKPOINT_DECLINED: V-map (2/3) declined checkpoint 1: no') });
  });

  it('refuses a job without checkpointing, a job not running, and a round no checkpoint can be taken in, with typed errors', () => {
    const plain = cluster({ 'tm-1': 4 }).dispatcher.submit(jobSpec(pipeline));
    expect(() => plain.triggerCheckpoint(false)).toThrow(expect.objectContaining({ code: 'CHECKPOINTING_NOT_ENABLED' }));
    const starting = checkpointingCluster({ 'tm-1': 2, 'tm-2': 2 });
    expect(() => starting.master.triggerCheckpoint(false)).toThrow(expect.objectContaining({ code: 'JOB_NOT_RUNNING' }));
    for (const s of starting.master.subtasks()) if (s.vertexId !== 'map' || s.index !== 1) starting.report('job-1', s.taskManagerId, `${s.vertexId}#${s.index}`, TaskState.RUNNING);
    expect(() => starting.master.triggerCheckpoint(false)).toThrow(expect.objectContaining({ code: 'JOB_NOT_RUNNING' }));
  });
});
