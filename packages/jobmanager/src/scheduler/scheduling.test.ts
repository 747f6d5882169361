import { describe, expect, it } from 'vitest';
import { JobStatus, TaskState } from '@weir/common';
import { SLOT_TIMEOUT, cluster, pipeline, placement, statuses } from '../testing/cluster.ts';
import { jobGraph, jobSpec, vertex } from '../testing/fixtures.ts';

describe('JobMaster scheduling', () => {
  it('runs subtask i of every vertex in slot i, spreading slots over TaskManagers', () => {
    const c = cluster({ 'tm-1': 2, 'tm-2': 2 });
    const job = c.dispatcher.submit(jobSpec(pipeline));
    // Deployed, but RUNNING only once every subtask runs.
    expect(job.status).toBe(JobStatus.CREATED);
    expect(c.gateway.deployed()).toEqual(placement);
    expect(c.slotPool.stats()).toEqual({ free: 1, total: 4, taskManagers: 2 });
    expect(job.subtasks().map((s) => s.state)).toEqual(Array(6).fill(TaskState.DEPLOYING));
  });

  it('puts p=2 on two TaskManagers one subtask each', () => {
    const c = cluster({ 'tm-1': 3, 'tm-2': 3 });
    c.dispatcher.submit(jobSpec(jobGraph(vertex('src', 2), vertex('map', 2, [['src', 'forward']]))));
    expect(c.gateway.deployed()).toEqual(['src#0@tm-1', 'src#1@tm-2', 'map#0@tm-1', 'map#1@tm-2']);
  });

  it('tells each subtask its job, defaults and where every producer of each input runs', () => {
    const c = cluster({ 'tm-1': 2, 'tm-2': 2 });
    const graph = jobGraph(vertex('a', 1), vertex('b', 3), vertex('join', 2, [['b', 'hash'], ['a', 'broadcast']]));
    c.dispatcher.submit(jobSpec(graph));
    const deploy = c.gateway.sent.find((m) => m.message.deploy?.task?.vertexId === 'join' && m.message.deploy.task.subtaskIndex === 1);
    expect(deploy).toEqual({
      taskManagerId: 'tm-2',
      message: {
        deploy: {
          task: { jobId: 'job-1', attempt: 0, vertexId: 'join', subtaskIndex: 1 },
          jobName: 'test job',
          bundleHash: 'hash-1',
          entryName: 'job.js',
          args: ['--in', 'x'],
          defaults: { parallelism: 2, maxParallelism: -1, bufferTimeoutMs: 100, objectReuse: false },
          parallelism: 2,
          inputs: [
            {
              sourceVertexId: 'b',
              producers: [
                { subtaskIndex: 0, taskManagerId: 'tm-1', dataAddress: 'tm-1:7000' },
                { subtaskIndex: 1, taskManagerId: 'tm-2', dataAddress: 'tm-2:7000' },
                { subtaskIndex: 2, taskManagerId: 'tm-1', dataAddress: 'tm-1:7000' },
              ],
            },
            { sourceVertexId: 'a', producers: [{ subtaskIndex: 0, taskManagerId: 'tm-1', dataAddress: 'tm-1:7000' }] },
          ],
          keyedStateBackend: 'heap',
        },
      },
    });
  });

  it('waits for TaskManagers to register, then deploys', () => {
    const c = cluster({ 'tm-1': 2 });
    const job = c.dispatcher.submit(jobSpec(pipeline));
    expect(job.status).toBe(JobStatus.CREATED);
    expect(c.gateway.sent).toEqual([]);
    c.clock.advance(SLOT_TIMEOUT - 1);
    c.addTaskManager('tm-2', 1);
    expect(c.gateway.deployed()).toHaveLength(6);
    // The slot request timeout no longer applies once the job is deployed.
    c.clock.advance(10 * SLOT_TIMEOUT);
    expect(job.status).toBe(JobStatus.CREATED);
  });

  it('fails after slot.request.timeout with the numbers of the shortage', () => {
    const c = cluster({ 'tm-1': 2 });
    c.dispatcher.submit(jobSpec(jobGraph(vertex('other', 1)), 'other'));
    const job = c.dispatcher.submit(jobSpec(pipeline));
    const seen = statuses(c, 'job-1');
    c.clock.advance(SLOT_TIMEOUT - 1);
    expect(job.status).toBe(JobStatus.CREATED);
    c.clock.advance(1);
    expect(job.status).toBe(JobStatus.FAILED);
    expect(seen).toEqual([JobStatus.FAILED]);
    expect(job.failureCause).toBe(
      'not enough task slots: the job needs 3 slots (its highest parallelism) and the cluster has 1 free of 2 (1 TaskManagers)',
    );
    expect(job.endTimeMs).toBe(1_000 + SLOT_TIMEOUT);
  });

  it('gives slots a finished job frees to the next job waiting', () => {
    const c = cluster({ 'tm-1': 1 });
    const first = c.dispatcher.submit(jobSpec(jobGraph(vertex('src', 1)), 'first'));
    const second = c.dispatcher.submit(jobSpec(jobGraph(vertex('src', 1)), 'second'));
    expect(second.status).toBe(JobStatus.CREATED);
    c.report('first', 'tm-1', 'src#0', TaskState.FINISHED);
    expect(first.status).toBe(JobStatus.FINISHED);
    expect(c.gateway.deployed()).toEqual(['src#0@tm-1', 'src#0@tm-1']);
    c.report('second', 'tm-1', 'src#0', TaskState.RUNNING);
    expect(second.status).toBe(JobStatus.RUNNING);
  });
});
