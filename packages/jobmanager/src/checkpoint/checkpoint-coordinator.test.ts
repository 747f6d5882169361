import { describe, expect, it } from 'vitest';
import { CheckpointFailureReason, JobStatus, TaskState, WeirError } from '@weir/common';
import { checkpointingCluster, PIPELINE_TASKS as TASKS, runningCheckpointingJob as running, settle, TIMEOUT } from '../testing/checkpointing-cluster.ts';

const TWO_TMS = { 'tm-1': 2, 'tm-2': 2 };

const notified = (id: number, outcome: 'completed' | 'aborted') => TASKS.map((t) => `${id} ${outcome} ${t}`);

describe('CheckpointCoordinator', () => {
  it('triggers at the sources every interval, one at a time, and no sooner than min-pause after a completion', async () => {
    const c = running({ checkpointing: { minPauseMs: 600 } });
    c.clock.advance(999);
    expect(c.triggers()).toEqual([]);
    c.clock.advance(1);
    expect(c.triggers()).toEqual(['1 src#0@tm-1', '1 src#1@tm-2']);
    c.clock.advance(2_000);
    expect(c.triggers()).toHaveLength(2);
    await c.ackAll(1);
    await settle();
    c.clock.advance(599);
    expect(c.triggers()).toHaveLength(2);
    c.clock.advance(1);
    expect(c.triggers().slice(2)).toEqual(['2 src#0@tm-1', '2 src#1@tm-2']);
    c.clock.advance(100);
    await c.ackAll(2);
    await settle();
    // Completed at 4 700: the interval (5 600) is later than the pause (5 300).
    c.clock.advance(899);
    expect(c.triggers()).toHaveLength(4);
    c.clock.advance(1);
    expect(c.triggers().slice(4)).toEqual(['3 src#0@tm-1', '3 src#1@tm-2']);
  });

  it('keeps up to max-concurrent checkpoints in flight and triggers the next once one completes', async () => {
    const c = running({ checkpointing: { maxConcurrent: 2 } });
    c.clock.advance(1_000);
    c.clock.advance(1_000);
    c.clock.advance(2_000);
    expect(c.triggers().map((t) => t.split(' ')[0])).toEqual(['1', '1', '2', '2']);
    await c.ackAll(1);
    await settle();
    c.clock.advance(0);
    expect(c.triggers().slice(4)).toEqual(['3 src#0@tm-1', '3 src#1@tm-2']);
    expect(c.master.checkpoints().checkpoints.map((cp) => `${cp.checkpointId} ${cp.status}`)).toEqual(['3 IN_PROGRESS', '2 IN_PROGRESS', '1 COMPLETED']);
  });

  it('skips a round while a task is not running, without using up an ID', () => {
    const c = checkpointingCluster(TWO_TMS);
    for (const s of c.master.subtasks()) if (s.vertexId !== 'map' || s.index !== 1) c.report('job-1', s.taskManagerId, `${s.vertexId}#${s.index}`, TaskState.RUNNING);
    c.clock.advance(1_000);
    expect(c.triggers()).toEqual([]);
    c.report('job-1', 'tm-2', 'map#1', TaskState.RUNNING);
    c.clock.advance(1_000);
    expect(c.triggers()).toEqual(['1 src#0@tm-1', '1 src#1@tm-2']);
  });

  it('writes _metadata after every task file and only then completes and notifies every task', async () => {
    const c = running();
    c.clock.advance(1_000);
    c.clock.advance(250);
    for (const task of TASKS) await c.writeState(1, task);
    for (const task of TASKS) c.acknowledge(1, task);
    expect(c.storage.log).toEqual([
      ...TASKS.map((t) => `write job-1/chk-1/op-${t.replace('#', '-')}`),
      'writeAtomic job-1/chk-1/_metadata',
    ]);
    expect(c.notifications()).toEqual([]);
    await settle();
    expect(c.notifications()).toEqual(notified(1, 'completed'));
    const metadata = JSON.parse(c.storage.text('job-1/chk-1/_metadata'));
    expect(metadata).toMatchObject({ version: 1, kind: 'checkpoint', jobId: 'job-1', jobName: 'test job', checkpointId: 1, timestamp: 2_000 });
    expect(metadata.operators.map((op: { operatorId: string; uid?: string; parallelism: number; subtasks: unknown[] }) => [op.operatorId, op.uid, op.parallelism, op.subtasks.length])).toEqual([
      ['op-src', 'source-uid', 2, 2],
      ['op-map', undefined, 3, 3],
      ['op-sink', undefined, 1, 1],
    ]);
    expect(metadata.operators[1].subtasks[2]).toEqual({ operator: [{ handle: { kind: 'file', path: 'op-map-2', size: 10 }, states: { list: { mode: 'split' } } }] });
    expect(c.master.checkpoints()).toEqual({
      checkpoints: [
        {
          checkpointId: 1,
          status: 'COMPLETED',
          triggerTimeMs: 2_000,
          durationMs: 250,
          stateBytes: 60,
          checkpointedBytes: 24,
          alignmentMs: 3,
          syncMs: 1,
          acknowledged: 6,
          totalTasks: 6,
          failureReason: '',
          externalPath: 'memory://cp/job-1/chk-1',
          retained: true,
          kind: 'CHECKPOINT',
          unaligned: false,
          persistedBytes: 0,
        },
      ],
      completed: 1,
      failed: 0,
      restoredFrom: 0,
      restores: 0,
    });
  });

  it('keeps num-retained checkpoints and deletes the directories of the ones they subsume', async () => {
    const c = running({ checkpointing: { numRetained: 2 } });
    for (const id of [1, 2, 3]) {
      c.clock.advance(1_000);
      await c.ackAll(id);
      await settle();
    }
    expect(new Set(c.storage.paths().map((p) => p.split('/')[1]))).toEqual(new Set(['chk-2', 'chk-3']));
    expect(c.master.checkpoints().checkpoints.map((cp) => `${cp.checkpointId} ${cp.status} ${cp.retained}`)).toEqual([
      '3 COMPLETED true',
      '2 COMPLETED true',
      '1 COMPLETED false',
    ]);
  });

  it('keeps the newest checkpoint when an older one finishes writing its _metadata after it: the older is subsumed, never completed', async () => {
    // With concurrent checkpoints, a newer one's _metadata may be written first. Completing the older after it made the
    // store retain the older (and delete the newer, whose completion the tasks had been told: sinks had committed it),
    // and a restore then went back to the older: output committed twice.
    const c = running({ checkpointing: { maxConcurrent: 2 } });
    c.clock.advance(1_000);
    c.clock.advance(1_000);
    const release = c.storage.hold('writeAtomic', 'job-1/chk-1/');
    await c.ackAll(1);
    await c.ackAll(2);
    await settle();
    expect(c.notifications()).toEqual(notified(2, 'completed'));
    release();
    await settle();
    expect(c.notifications()).toEqual([...notified(2, 'completed'), ...notified(1, 'aborted')]);
    expect(c.master.checkpoints().checkpoints.map((cp) => `${cp.checkpointId} ${cp.status} ${cp.retained} ${cp.failureReason}`)).toEqual([
      '2 COMPLETED true ',
      '1 FAILED false CHECKPOINT_SUBSUMED: checkpoint 2 completed while its _metadata was being written',
    ]);
    expect(new Set(c.storage.paths().map((p) => p.split('/')[1]))).toEqual(new Set(['chk-2']));
    expect(c.master.status).toBe(JobStatus.RUNNING);
  });

  it('expires a checkpoint after the timeout: aborted everywhere, its files deleted, even those acknowledged late', async () => {
    const c = running({ checkpointing: { tolerableFailures: 1 } });
    c.clock.advance(1_000);
    await c.ackAll(1, ['map#1']);
    c.clock.advance(TIMEOUT - 1);
    expect(c.notifications()).toEqual([]);
    c.clock.advance(1);
    expect(c.notifications()).toEqual(notified(1, 'aborted'));
    await settle();
    expect(c.storage.paths()).toEqual([]);
    const [second, first] = c.master.checkpoints().checkpoints;
    expect(first).toMatchObject({
      checkpointId: 1,
      status: 'FAILED',
      durationMs: TIMEOUT,
      acknowledged: 5,
      failureReason: 'CHECKPOINT_EXPIRED: checkpoint 1 expired after the checkpoint timeout of 10000 ms with 5 of 6 tasks acknowledged; still waiting for V-map (2/3)',
      retained: false,
    });
    expect(second).toMatchObject({ checkpointId: 2, status: 'IN_PROGRESS' });
    await c.writeState(1, 'map#1');
    expect(c.storage.paths()).toEqual(['job-1/chk-1/op-map-1']);
    c.acknowledge(1, 'map#1');
    await settle();
    expect(c.storage.paths()).toEqual([]);
    expect(c.master.status).toBe(JobStatus.RUNNING);
  });

  it('aborts on a decline with the reason the task gave and tells every task', async () => {
    const c = running({ checkpointing: { tolerableFailures: 1 } });
    c.clock.advance(1_000);
    await c.ack(1, 'src#0');
    c.decline(1, 'map#1', CheckpointFailureReason.SNAPSHOT_FAILED, 'snapshotState of sums threw: TypeError: x is undefined');
    expect(c.notifications()).toEqual(notified(1, 'aborted'));
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({
      status: 'FAILED',
      failureReason: 'CHECKPOINT_SNAPSHOT_FAILED: V-map (2/3) declined checkpoint 1: snapshotState of sums threw: TypeError: x is undefined',
    });
    await settle();
    expect(c.storage.paths()).toEqual([]);
    c.decline(1, 'map#2', CheckpointFailureReason.DECLINED, 'again');
    expect(c.master.checkpoints().failed).toBe(1);
    expect(c.master.status).toBe(JobStatus.RUNNING);
  });

  it('fails the job over once consecutive failures exceed the tolerable number; a completion resets the count', async () => {
    const c = running({ checkpointing: { tolerableFailures: 1 } });
    c.clock.advance(1_000);
    c.decline(1, 'map#0', CheckpointFailureReason.DECLINED, 'first');
    c.clock.advance(1_000);
    await c.ackAll(2);
    await settle();
    c.clock.advance(1_000);
    c.decline(3, 'map#0', CheckpointFailureReason.STATE_TOO_LARGE, 'second');
    c.clock.advance(1_000);
    c.decline(4, 'sink#0', CheckpointFailureReason.SUBSUMED, 'overtaken, not counted');
    expect(c.master.status).toBe(JobStatus.RUNNING);
    c.clock.advance(1_000);
    c.gateway.clear();
    c.decline(5, 'map#0', CheckpointFailureReason.DECLINED, 'third');
    expect(c.master.status).toBe(JobStatus.FAILING);
    expect(c.gateway.canceled()).toEqual(TASKS.map((t) => `${t}@${t === 'src#1' || t === 'map#1' ? 'tm-2' : 'tm-1'}`));
    c.reportAll(TaskState.CANCELED);
    expect(c.master.status).toBe(JobStatus.FAILED);
    expect(c.master.failureCause).toBe(
      'exceeded the tolerable checkpoint failure threshold (1): CHECKPOINT_DECLINED: V-map (1/3) declined checkpoint 5: third',
    );
  });

  it('aborts with CHECKPOINT_STORAGE_FAILURE when _metadata cannot be written, naming where', async () => {
    const c = running({ checkpointing: { tolerableFailures: 1 } });
    c.storage.fail('writeAtomic', 'job-1/chk-1/_metadata', new WeirError('STORAGE_FAILURE', 'disk full'));
    c.clock.advance(1_000);
    await c.ackAll(1);
    await settle();
    expect(c.notifications()).toEqual(notified(1, 'aborted'));
    expect(c.master.checkpoints().checkpoints[0]!.failureReason).toBe(
      'CHECKPOINT_STORAGE_FAILURE: could not write memory://cp/job-1/chk-1/_metadata: disk full [STORAGE_FAILURE]',
    );
    expect(c.storage.paths()).toEqual([]);
  });

  it('aborts what is pending without telling the tasks when the job fails over or is cancelled', async () => {
    const c = running({ checkpointing: { tolerableFailures: 5 } });
    c.clock.advance(1_000);
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({
      status: 'FAILED',
      failureReason: 'CHECKPOINT_TASK_FAILURE: the job failed over while checkpoint 1 was pending',
    });
    const other = running();
    other.clock.advance(1_000);
    other.dispatcher.cancel('job-1');
    expect(other.master.checkpoints().checkpoints[0]!.failureReason).toBe('CHECKPOINT_JOB_ENDED: the job ended while checkpoint 1 was pending');
    expect([...c.notifications(), ...other.notifications()]).toEqual([]);
  });

  it('ignores acknowledgements of another attempt or from a TaskManager the task is not on', async () => {
    const c = running();
    c.clock.advance(1_000);
    const task = { jobId: 'job-1', attempt: 0, vertexId: 'map', subtaskIndex: 1 };
    const state = Buffer.from(JSON.stringify({ operators: {} }));
    c.dispatcher.acknowledgeCheckpoint('tm-1', { task, checkpointId: 1, state, metrics: null });
    c.dispatcher.acknowledgeCheckpoint('tm-2', { task: { ...task, attempt: 3 }, checkpointId: 1, state, metrics: null });
    expect(c.master.checkpoints().checkpoints[0]!.acknowledged).toBe(0);
    c.dispatcher.acknowledgeCheckpoint('tm-2', { task, checkpointId: 1, state: Buffer.from('{"truncated'), metrics: null });
    expect(c.master.checkpoints().checkpoints[0]!.failureReason).toMatch(/^CHECKPOINT_DECLINED: V-map \(2\/3\) declined checkpoint 1: its acknowledgement carried no valid state: not JSON/);
  });

  it('keeps the _metadata of a memory backend without directory in memory', async () => {
    const c = running({ storage: false });
    c.clock.advance(1_000);
    await c.ackAll(1);
    await settle();
    expect(c.notifications()).toEqual(notified(1, 'completed'));
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({ status: 'COMPLETED', externalPath: '' });
    expect(c.storage.log).toEqual([]);
  });
});
