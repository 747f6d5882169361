import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointFailureReason, type TaskStateSnapshot } from '@weir/common';
import { register, startTaskManagerWithFakes } from '../testing/control-harness.ts';
import { deployMessage } from '../testing/jobs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEY = { jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 0 };

const SNAPSHOT: TaskStateSnapshot = {
  operators: {
    source: { operator: [{ handle: { kind: 'inline', data: 'AQID', size: 3 }, states: { '$source-reader': { mode: 'split' } } }] },
  },
};

describe('checkpoints over the control stream', () => {
  it('passes triggers and notifications to the task and sends its acknowledgements and declines back', async () => {
    const { jobManager, taskManager, factory, logs } = await startTaskManagerWithFakes(cleanups);
    await register(jobManager, taskManager, 1_000, 30_000);
    jobManager.latest.send({ deploy: deployMessage() });
    await vi.waitFor(() => expect(factory.tasks[0]?.started).toBe(true));
    const task = factory.tasks[0]!;

    jobManager.latest.send({ triggerCheckpoint: { task: { ...KEY, subtaskIndex: 1 }, checkpointId: 2, timestampMs: 5 } });
    jobManager.latest.send({ triggerCheckpoint: { task: KEY, checkpointId: 3, timestampMs: 1_700_000_000_000 } });
    jobManager.latest.send({ notifyCheckpoint: { task: KEY, checkpointId: 3, completed: true } });
    jobManager.latest.send({ notifyCheckpoint: { task: KEY, checkpointId: 4, completed: false } });
    await vi.waitFor(() => expect(task.checkpointCalls).toHaveLength(3));
    expect(task.checkpointCalls).toEqual([
      { call: 'trigger', checkpointId: 3, timestamp: 1_700_000_000_000, options: { type: 'checkpoint' } },
      { call: 'complete', checkpointId: 3 },
      { call: 'abort', checkpointId: 4 },
    ]);

    task.acknowledge({ checkpointId: 3, state: SNAPSHOT, metrics: { syncMs: 2, asyncMs: 15, alignmentMs: 0, stateBytes: 3, checkpointedBytes: 3, unaligned: false, persistedBytes: 0 } });
    task.decline({ checkpointId: 5, reason: CheckpointFailureReason.SUBSUMED, message: 'barrier 6 arrived while aligning checkpoint 5' });
    await vi.waitFor(() => expect(jobManager.latest.declines).toHaveLength(1));
    expect(jobManager.latest.acks).toHaveLength(1);
    const ack = jobManager.latest.acks[0]!;
    expect(JSON.parse(ack.state.toString('utf8'))).toEqual(SNAPSHOT);
    expect({ ...ack, state: undefined }).toEqual({
      task: KEY,
      checkpointId: 3,
      state: undefined,
      metrics: { syncMs: 2, asyncMs: 15, alignmentMs: 0, stateBytes: 3, checkpointedBytes: 3, unaligned: false, persistedBytes: 0 },
    });
    expect(jobManager.latest.declines).toEqual([
      { task: KEY, checkpointId: 5, reasonCode: 'CHECKPOINT_SUBSUMED', message: 'barrier 6 arrived while aligning checkpoint 5' },
    ]);
    const checkpointLogs = logs.filter((entry) => entry.fields.checkpointId !== undefined).map((entry) => [entry.message, entry.fields.checkpointId]);
    expect(checkpointLogs).toEqual([
      ['ignored a checkpoint trigger for a task not running here', 2],
      ['checkpoint triggered', 3],
      ['checkpoint completed', 3],
      ['checkpoint aborted', 4],
      ['acknowledging checkpoint', 3],
      ['declining checkpoint', 5],
    ]);
  });

  it('drops what a task sends after the stream that deployed it broke, also on the next stream', async () => {
    const { jobManager, taskManager, factory, clock } = await startTaskManagerWithFakes(cleanups);
    await register(jobManager, taskManager, 1_000, 30_000);
    jobManager.latest.send({ deploy: deployMessage() });
    await vi.waitFor(() => expect(factory.tasks[0]?.started).toBe(true));
    const firstStream = jobManager.latest;
    firstStream.end();
    await vi.waitFor(() => expect(taskManager.connectionState).toBe('backoff'));
    clock.advance(500);
    await vi.waitFor(() => expect(jobManager.streams).toHaveLength(2));
    await register(jobManager, taskManager, 1_000, 30_000);
    const task = factory.tasks[0]!;
    task.acknowledge({ checkpointId: 3, state: SNAPSHOT, metrics: { syncMs: 0, asyncMs: 0, alignmentMs: 0, stateBytes: 3, checkpointedBytes: 3, unaligned: false, persistedBytes: 0 } });
    task.decline({ checkpointId: 4, reason: CheckpointFailureReason.TASK_FAILURE, message: 'cancelled' });
    // A heartbeat sent after them shows the stream carried everything sent before it.
    clock.advance(1_000);
    await vi.waitFor(() => expect(jobManager.latest.heartbeats).toHaveLength(1));
    expect(jobManager.latest.acks).toEqual([]);
    expect(jobManager.latest.declines).toEqual([]);
    expect(firstStream.acks).toEqual([]);
  });
});
