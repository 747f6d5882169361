import { afterEach, describe, expect, it } from 'vitest';
import { decodeSourceEvent, encodeSourceEvent, parseReaderEvent, TaskState, WeirError, type Logger } from '@weir/common';
import { deployerHarness } from '../testing/deployer-harness.ts';
import { deployMessage, oneVertexJob } from '../testing/jobs.ts';
import type { JobLoader, LoadedJob } from './types.ts';

/** A loader whose result the test hands out when it likes. */
function manualLoader() {
  const pending: { resolve: (job: LoadedJob) => void; reject: (error: unknown) => void }[] = [];
  const loadJob: JobLoader = () => new Promise((resolve, reject) => pending.push({ resolve, reject }));
  return { pending, loadJob };
}

const harnesses: ReturnType<typeof deployerHarness>[] = [];
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.close();
});

function setup(loadJob?: JobLoader, logger?: Logger) {
  const harness = deployerHarness({ loadJob, logger });
  harnesses.push(harness);
  return harness;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('Deployer', () => {
  it('starts the task with the deployment and reports each state once, in order', async () => {
    const { factory, deployer, updates, states, report } = setup();
    deployer.deploy(deployMessage({ subtask: 1 }), report);
    await flush();

    const task = factory.tasks[0]!;
    expect(task.started).toBe(true);
    expect(task.options.deployment).toEqual({
      jobId: 'job-1',
      attempt: 0,
      jobName: 'test job',
      vertexId: 'vertex-a',
      subtaskIndex: 1,
      parallelism: 2,
      inputs: [
        {
          sourceVertexId: 'vertex-0',
          producers: [
            { subtaskIndex: 0, taskManagerId: 'tm-a', dataAddress: 'a:1' },
            { subtaskIndex: 1, taskManagerId: 'tm-b', dataAddress: 'b:2' },
          ],
        },
      ],
    });
    expect(task.options.network.taskManagerId).toBe('tm-1');
    task.options.onStateChange({ state: TaskState.RUNNING });
    task.fail('Map (2/2) failed: boom', 'USER_FUNCTION_FAILED');

    expect(states()).toEqual(['DEPLOYING', 'INITIALIZING', 'RUNNING', 'FAILED']);
    expect(updates[3]).toEqual({
      task: { jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 1 },
      state: 'FAILED',
      failureCause: 'Map (2/2) failed: boom',
      failureCode: 'USER_FUNCTION_FAILED',
    });
    expect(updates[0]!.failureCause).toBe('');
    expect(deployer.taskCount).toBe(0);
  });

  it('carries split source events both ways: reader events to the JobManager, enumerator events to the task', async () => {
    const { factory, deployer, operatorEvents, report } = setup();
    deployer.deploy(deployMessage({ subtask: 1 }), report);
    await flush();
    const task = factory.tasks[0]!;
    task.readerEvent('op-1', { kind: 'reader-registered' });
    expect(operatorEvents).toHaveLength(1);
    expect(operatorEvents[0]!.task).toEqual({ jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 1 });
    expect(decodeSourceEvent(operatorEvents[0]!.event as Uint8Array, parseReaderEvent)).toEqual({ kind: 'reader-registered' });

    const key = { jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 1 };
    deployer.operatorEvent({ task: key, operatorId: 'op-1', event: Buffer.from(encodeSourceEvent({ kind: 'add-splits', splits: [{ splitId: 's' }] })) });
    deployer.operatorEvent({ task: key, operatorId: 'op-1', event: Buffer.from([0xc1]) });
    deployer.operatorEvent({ task: { ...key, attempt: 1 }, operatorId: 'op-1', event: Buffer.from(encodeSourceEvent({ kind: 'no-more-splits' })) });
    expect(task.operatorEvents).toEqual([{ operatorId: 'op-1', event: { kind: 'add-splits', splits: [{ splitId: 's' }] } }]);
  });

  it('releases an attempt once its last task here ended, not before', async () => {
    const { registry, factory, deployer, report } = setup();
    deployer.deploy(deployMessage({ subtask: 0 }), report);
    deployer.deploy(deployMessage({ subtask: 1 }), report);
    deployer.deploy(deployMessage({ attempt: 1, subtask: 0 }), report);
    await flush();

    factory.tasks[0]!.finish();
    await flush();
    expect(registry.released).toEqual([]);
    factory.tasks[1]!.finish();
    await flush();
    expect(registry.released).toEqual(['job-1/0']);
    await factory.tasks[2]!.cancel();
    await flush();
    expect(registry.released).toEqual(['job-1/0', 'job-1/1']);
  });

  it('cancels a task that is still loading at once and never starts it', async () => {
    const { pending, loadJob } = manualLoader();
    const { factory, deployer, states, report } = setup(loadJob);
    deployer.deploy(deployMessage(), report);
    deployer.cancel({ task: { jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 0 } });
    expect(states()).toEqual(['DEPLOYING', 'CANCELED']);

    pending[0]!.resolve(oneVertexJob());
    await flush();
    expect(factory.tasks).toEqual([]);
    expect(states()).toEqual(['DEPLOYING', 'CANCELED']);
  });

  it('cancels running tasks on request and all of them on cancelAll', async () => {
    const { factory, deployer, states, report } = setup();
    deployer.deploy(deployMessage({ subtask: 0 }), report);
    deployer.deploy(deployMessage({ subtask: 1 }), report);
    await flush();
    deployer.cancel({ task: { jobId: 'job-1', attempt: 0, vertexId: 'vertex-a', subtaskIndex: 7 } });
    expect(factory.tasks.map((task) => task.cancelled)).toEqual([false, false]);

    await deployer.cancelAll();
    expect(factory.tasks.map((task) => task.cancelled)).toEqual([true, true]);
    expect(deployer.taskCount).toBe(0);
    expect(states().filter((state) => state === 'CANCELED')).toHaveLength(2);
  });

  it('ignores a second deploy of a task that is still running', async () => {
    const { factory, deployer, states, report } = setup();
    deployer.deploy(deployMessage(), report);
    deployer.deploy(deployMessage(), report);
    await flush();
    expect(factory.tasks).toHaveLength(1);
    expect(states()).toEqual(['DEPLOYING', 'INITIALIZING', 'RUNNING']);
  });

  it.each([
    [
      'the loader fails with a WeirError',
      async () => {
        throw new WeirError('BUNDLE_FETCH_FAILED', 'cannot fetch job bundle hash from the JobManager: gone');
      },
      'deploying vertex-a (1/2) of job job-1 attempt 0 failed: cannot fetch job bundle hash from the JobManager: gone',
      'BUNDLE_FETCH_FAILED',
    ],
    [
      'the vertex is missing',
      async () => oneVertexJob('other-vertex'),
      "deploying vertex-a (1/2) of job job-1 attempt 0 failed: vertex vertex-a is not in job 'test job', whose vertices are vertex-0 (Source), other-vertex (Map -> Sink); the graph built here from the job bundle differs from the one the JobManager planned; a job must build the same graph from the same args in every process",
      'DEPLOYMENT_MISMATCH',
    ],
    [
      'the parallelism differs',
      async () => oneVertexJob('vertex-a', 3),
      "deploying vertex-a (1/2) of job job-1 attempt 0 failed: vertex 'Map -> Sink' was deployed with parallelism 2 but has 3 here; the graph built here from the job bundle differs from the one the JobManager planned; a job must build the same graph from the same args in every process",
      'DEPLOYMENT_MISMATCH',
    ],
  ])('reports FAILED before starting when %s', async (_case, loadJob, message, code) => {
    const { registry, factory, deployer, updates, report } = setup(loadJob);
    deployer.deploy(deployMessage(), report);
    await flush();
    expect(factory.tasks).toEqual([]);
    expect(updates.map((update) => [update.state, update.failureCause, update.failureCode])).toEqual([
      ['DEPLOYING', '', ''],
      ['FAILED', message, code],
    ]);
    expect(registry.released).toEqual(['job-1/0']);
  });

  it('reports an unexpected loader error as INTERNAL with its stack', async () => {
    const { updates, deployer, report } = setup(async () => {
      throw new TypeError('x is not a function');
    });
    deployer.deploy(deployMessage(), report);
    await flush();
    expect(updates[1]!.failureCode).toBe('INTERNAL');
    expect(updates[1]!.failureCause).toMatch(
      /^deploying vertex-a \(1\/2\) of job job-1 attempt 0 failed: TypeError: x is not a function\n\s+at /,
    );
  });
});
