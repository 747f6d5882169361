import { describe, expect, it } from 'vitest';
import { JobStatus, TaskState } from '@weir/common';
import { PIPELINE_TASKS as TASKS, runningCheckpointingJob as running, settle } from '../testing/checkpointing-cluster.ts';
import { savepointCluster } from '../testing/savepoint-cluster.ts';

const ids = (triggers: string[]) => triggers.map((t) => t.split(' ')[0]);

describe('the final checkpoint of a bounded job', () => {
  it('is triggered as soon as every task awaits it, not at the next interval, and the job finishes after it', async () => {
    const c = running({ checkpointing: { intervalMs: 60_000 } });
    c.clock.advance(400);
    for (const task of TASKS.slice(0, -1)) c.awaitFinal(task);
    c.clock.advance(0);
    expect(c.triggers()).toEqual([]);
    c.awaitFinal('sink#0');
    c.clock.advance(0);
    expect(c.triggers()).toEqual(['1 src#0@tm-1', '1 src#1@tm-2']);
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({ checkpointId: 1, triggerTimeMs: 1_400 });
    await c.ackAll(1);
    await settle();
    expect(c.notifications()).toEqual(TASKS.map((t) => `1 completed ${t}`));
    // Every task is done: nothing more is triggered early while they finish.
    c.clock.advance(0);
    for (const task of TASKS) c.finish(task);
    expect(c.master.status).toBe(JobStatus.FINISHED);
    expect(c.triggers()).toHaveLength(2);
  });

  it('waits for the last of several sources that end at different times', () => {
    const c = running({ checkpointing: { intervalMs: 60_000 } });
    c.awaitFinal('src#1');
    c.clock.advance(5_000);
    for (const task of ['map#0', 'map#1', 'map#2', 'sink#0']) c.awaitFinal(task);
    c.clock.advance(5_000);
    expect(c.triggers()).toEqual([]);
    c.awaitFinal('src#0');
    c.clock.advance(0);
    expect(c.triggers()).toEqual(['1 src#0@tm-1', '1 src#1@tm-2']);
  });

  it('with a checkpoint in flight that the tasks took before their end, triggers the next one right after it completes', async () => {
    const c = running({ checkpointing: { minPauseMs: 300 } });
    c.clock.advance(1_000);
    expect(ids(c.triggers())).toEqual(['1', '1']);
    for (const task of TASKS) c.awaitFinal(task, 1);
    c.clock.advance(0);
    expect(c.triggers()).toHaveLength(2);
    c.clock.advance(100);
    await c.ackAll(1);
    await settle();
    // Completed at 2 100: the next is due at once, but min-pause holds it until 2 400 (the interval would wait until 3 000).
    c.clock.advance(299);
    expect(c.triggers()).toHaveLength(2);
    c.clock.advance(1);
    expect(c.triggers().slice(2)).toEqual(['2 src#0@tm-1', '2 src#1@tm-2']);
  });

  it('triggers nothing more when the checkpoint in flight was taken after every end: it is the final one', async () => {
    const c = running();
    c.clock.advance(1_000);
    for (const task of TASKS) c.awaitFinal(task, 0);
    await c.ackAll(1);
    await settle();
    c.clock.advance(500);
    expect(c.triggers()).toHaveLength(2);
  });

  it('waits for a task whose final checkpoint completed to finish, unless a producer of it still waits', async () => {
    const c = running();
    c.awaitFinal('src#1');
    c.clock.advance(1_000);
    await c.ackAll(1);
    await settle();
    // src#1 is done with checkpoint 1 and about to finish; the others took 1 before their end.
    for (const task of TASKS.filter((t) => t !== 'src#1')) c.awaitFinal(task, 1);
    c.clock.advance(0);
    expect(c.triggers()).toHaveLength(2);
    c.finish('src#1');
    c.clock.advance(0);
    expect(c.triggers().slice(2)).toEqual(['2 src#0@tm-1']);

    // The maps and the sink are done, the sources are not: the maps cannot finish before the sources, so it is triggered at once.
    const d = running();
    for (const task of ['map#0', 'map#1', 'map#2', 'sink#0']) d.awaitFinal(task, 0);
    d.clock.advance(1_000);
    for (const task of ['src#0', 'src#1']) d.awaitFinal(task, 1);
    await d.ackAll(1);
    await settle();
    d.clock.advance(0);
    expect(d.triggers().slice(2)).toEqual(['2 src#0@tm-1', '2 src#1@tm-2']);
  });

  it('triggers early once per attempt: when that checkpoint fails the next comes at the interval, and a new attempt starts afresh', async () => {
    const RESTART = { kind: 'fixed-delay', attempts: 3, delayMs: 500 } as const;
    const c = running({ checkpointing: { tolerableFailures: 5 }, restartStrategy: RESTART });
    c.clock.advance(300);
    for (const task of TASKS) c.awaitFinal(task);
    c.clock.advance(0);
    expect(c.triggers()).toEqual(['1 src#0@tm-1', '1 src#1@tm-2']);
    c.decline(1, 'map#1', 'CHECKPOINT_DECLINED', 'disk full');
    c.clock.advance(999);
    expect(c.triggers()).toHaveLength(2);
    c.clock.advance(1);
    expect(ids(c.triggers().slice(2))).toEqual(['2', '2']);

    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom', attempt: c.master.attempt });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    c.reportAll(TaskState.RUNNING);
    c.gateway.clear();
    // No checkpoint completed: the restarted tasks end at once and wait again.
    for (const task of TASKS) c.awaitFinal(task);
    c.clock.advance(0);
    expect(ids(c.triggers())).toEqual(['3', '3']);
  });

  it('ignores the report of a task from a TaskManager it is not deployed to', () => {
    const c = running();
    for (const task of TASKS.slice(1)) c.awaitFinal(task);
    c.awaitFinal('src#0', 0, 'tm-2');
    c.clock.advance(500);
    expect(c.triggers()).toEqual([]);
  });

  it('waits for a savepoint in progress, then triggers at once', async () => {
    const c = savepointCluster({ checkpointing: { intervalMs: 60_000 } });
    c.trigger();
    await settle();
    for (const task of TASKS) c.awaitFinal(task);
    c.clock.advance(0);
    expect(ids(c.triggers())).toEqual(['1', '1']);
    await c.ackSavepoint(1);
    await settle();
    c.clock.advance(0);
    expect(c.triggerOptions().slice(2)).toEqual(['2 plain src#0', '2 plain src#1']);
  });

  it('takes nothing after a drained stop-with-savepoint: the savepoint is the final checkpoint', async () => {
    const c = savepointCluster();
    c.trigger({ terminate: 'STOP', drain: true });
    await settle();
    for (const task of TASKS) c.awaitFinal(task, 0);
    await c.ackSavepoint(1);
    await settle();
    c.clock.advance(500);
    expect(c.triggers()).toHaveLength(2);
    c.reportAll(TaskState.FINISHED);
    expect(c.master.status).toBe(JobStatus.FINISHED);
  });
});
