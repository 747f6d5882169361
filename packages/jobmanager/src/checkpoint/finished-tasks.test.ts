import { describe, expect, it } from 'vitest';
import { JobStatus, TaskState, WeirError } from '@weir/common';
import { checkpointingCluster, settle, taskState } from '../testing/checkpointing-cluster.ts';

const TWO_TMS = { 'tm-1': 2, 'tm-2': 2 };
const RUNNING_TASKS = ['src#0', 'map#0', 'map#1', 'map#2', 'sink#0'];

/** A running pipeline job whose checkpoint 1 completed (at 2 000), then src#1 reached its end and FINISHED. */
async function withFinishedSource(job: Parameters<typeof checkpointingCluster>[1] = {}) {
  const c = checkpointingCluster(TWO_TMS, job);
  c.reportAll(TaskState.RUNNING);
  c.clock.advance(1_000);
  await c.ackAll(1);
  await settle();
  c.report('job-1', 'tm-2', 'src#1', TaskState.FINISHED, { attempt: c.master.attempt });
  c.gateway.clear();
  c.storage.log.length = 0;
  return c;
}

describe('checkpoints after tasks finished', () => {
  it('triggers the running source only, waits for the running tasks, and carries the finished task state with its file', async () => {
    const c = await withFinishedSource();
    c.clock.advance(1_000);
    expect(c.triggers()).toEqual(['2 src#0@tm-1']);
    for (const task of RUNNING_TASKS) await c.ack(2, task);
    await settle();
    const ownWrites = RUNNING_TASKS.map((t) => `write job-1/chk-2/op-${t.replace('#', '-')}`);
    expect(c.storage.log.filter((l) => !ownWrites.includes(l))).toEqual([
      'read job-1/chk-1/op-src-1',
      'write job-1/chk-2/op-src-1',
      'writeAtomic job-1/chk-2/_metadata',
      'deleteDirectory job-1/chk-1',
    ]);
    expect(c.storage.text('job-1/chk-2/op-src-1')).toBe('state of src#1');
    const metadata = JSON.parse(c.storage.text('job-1/chk-2/_metadata'));
    expect(metadata.operators[0].subtasks).toEqual([taskState('src#0').operators['op-src'], taskState('src#1').operators['op-src']]);
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({ checkpointId: 2, status: 'COMPLETED', acknowledged: 5, totalTasks: 5 });
    expect(c.notifications()).toEqual(RUNNING_TASKS.map((t) => `2 completed ${t}`));
  });

  it('carries the state on from checkpoint to checkpoint, and a restore gives it back to the finished task', async () => {
    const RESTART = { kind: 'fixed-delay', attempts: 3, delayMs: 500 } as const;
    const c = await withFinishedSource({ restartStrategy: RESTART });
    for (const id of [2, 3]) {
      c.clock.advance(1_000);
      for (const task of RUNNING_TASKS) await c.ack(id, task);
      await settle();
    }
    expect(c.storage.paths()).toEqual([
      'job-1/chk-3/_metadata',
      ...['map-0', 'map-1', 'map-2', 'sink-0', 'src-0', 'src-1'].map((f) => `job-1/chk-3/op-${f}`),
    ]);
    expect(c.storage.text('job-1/chk-3/op-src-1')).toBe('state of src#1');
    c.gateway.clear();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom', attempt: c.master.attempt });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    const deploy = c.gateway.sent.map((m) => m.message.deploy).find((d) => d?.task?.vertexId === 'src' && d.task.subtaskIndex === 1);
    expect(deploy!.restore!.checkpointId).toBe(3);
    expect(deploy!.restore!.checkpointPath).toBe('memory://cp/job-1/chk-3');
    expect(JSON.parse(Buffer.from(deploy!.restore!.state as Uint8Array).toString())).toEqual(taskState('src#1'));
  });

  it('aborts, without counting it, a pending checkpoint a task finished without acknowledging', async () => {
    const c = checkpointingCluster(TWO_TMS);
    c.reportAll(TaskState.RUNNING);
    c.clock.advance(1_000);
    await c.ackAll(1);
    await settle();
    c.clock.advance(1_000);
    await c.ack(2, 'src#0');
    // src#1's final checkpoint was 1: it ends, and the trigger of 2 finds no task.
    c.report('job-1', 'tm-2', 'src#1', TaskState.FINISHED);
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({
      checkpointId: 2,
      status: 'FAILED',
      failureReason: 'CHECKPOINT_TASK_NOT_READY: V-src (2/2) finished before it acknowledged checkpoint 2',
    });
    expect(c.notifications().filter((n) => n.startsWith('2 '))).toEqual(RUNNING_TASKS.map((t) => `2 aborted ${t}`));
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    c.clock.advance(1_000);
    expect(c.triggers().slice(-1)).toEqual(['3 src#0@tm-1']);
  });

  it('fails the checkpoint, naming both directories, when the finished task state cannot be copied', async () => {
    const c = await withFinishedSource();
    c.storage.fail('read', 'job-1/chk-1/op-src-1', new WeirError('STORAGE_FAILURE', 'disk gone'));
    c.clock.advance(1_000);
    for (const task of RUNNING_TASKS) await c.ack(2, task);
    await settle();
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({
      checkpointId: 2,
      status: 'FAILED',
      failureReason: 'CHECKPOINT_STORAGE_FAILURE: could not copy the state of finished tasks from memory://cp/job-1/chk-1 to memory://cp/job-1/chk-2: disk gone [STORAGE_FAILURE]',
    });
    expect(c.storage.paths().filter((p) => p.startsWith('job-1/chk-2/'))).toEqual([]);
    expect(c.storage.paths()).toContain('job-1/chk-1/_metadata');
  });

  it('once every source finished, triggers the tasks they fed, which may still wait for a checkpoint after their end of data', async () => {
    const c = await withFinishedSource();
    c.report('job-1', 'tm-1', 'src#0', TaskState.FINISHED);
    c.clock.advance(1_000);
    expect(c.triggers().map((t) => t.split('@')[0])).toEqual(['2 map#0', '2 map#1', '2 map#2']);
  });
});
