import { Boundedness, InputStatus, WeirError, type ConnectorContext, type SinkWriter, type Source } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { PartitionRegistry } from '../network/partition-registry.ts';
import { silentLogger } from '@weir/common/testing';
import { CollectingSink, runJob, states, waitUntil } from '../testing/harness.ts';
import { Task } from './task.ts';

/** Emits `items`, then has nothing more but never ends, like an idle unbounded source. */
function idleAfter<T>(items: readonly T[], closed: string[]): Source<T> {
  return {
    boundedness: Boundedness.CONTINUOUS_UNBOUNDED,
    createReader: () => {
      let next = 0;
      return {
        pollNext: (output) => {
          if (next >= items.length) return InputStatus.NOTHING_AVAILABLE;
          output.collect(items[next++]!);
          return InputStatus.MORE_AVAILABLE;
        },
        isAvailable: () => new Promise<void>(() => {}),
        close: () => void closed.push('reader'),
      };
    },
  };
}

describe('task failure and cancel', () => {
  it('fails a running task from outside (failExternally): it stops, reports FAILED with the cause, and ignores a second call', async () => {
    const closed: string[] = [];
    const job = await runJob((env) => {
      env.fromSource(idleAfter([1, 2], closed), 'numbers').sinkTo(new CollectingSink());
    });
    const task = job.deployed[0]!.task;
    await waitUntil(() => task.state === 'RUNNING');
    task.failExternally(new WeirError('BY_TEST', 'failed by the test'));
    task.failExternally(new WeirError('BY_TEST', 'again'));
    await job.whenAllTerminal();
    expect(task.state).toBe('FAILED');
    expect(job.changes.get(task)?.find((c) => c.failure !== undefined)?.failure).toMatchObject({ code: 'BY_TEST', message: 'failed by the test' });
    expect(closed).toEqual(['reader']);
  });

  it('fails the task whose map throws, naming operator and subtask; the producer stays up until cancelled', async () => {
    const closed: string[] = [];
    const job = await runJob((env) => {
      env
        .fromSource(idleAfter([1, 2, 3, 4, 5, 6], closed), 'numbers')
        .rebalance()
        .map((x: number) => {
          if (x === 4) throw new Error('no fours allowed');
          return x;
        })
        .name('Picky')
        .sinkTo(new CollectingSink());
    });
    const [producer, consumer] = job.jobGraph.vertices.map((v) => job.task(v.name));
    await waitUntil(() => consumer!.state === 'FAILED');
    const failure = job.changes.get(consumer!)!.at(-1)!.failure!;
    expect(failure.code).toBe('USER_FUNCTION_FAILED');
    expect(failure.message.startsWith('Picky (1/1) failed: no fours allowed\nError: no fours allowed\n    at ')).toBe(true);
    expect(states(job.changes.get(consumer!))).toEqual(['INITIALIZING', 'RUNNING', 'FAILED']);

    expect(producer!.state).toBe('RUNNING');
    await producer!.cancel();
    expect(states(job.changes.get(producer!))).toEqual(['INITIALIZING', 'RUNNING', 'CANCELING', 'CANCELED']);
    expect(closed).toEqual(['reader']);
    await producer!.cancel();
    expect(producer!.state).toBe('CANCELED');
  });

  it('cancels, not fails, a consumer whose producer was cancelled first', async () => {
    const job = await runJob((env) => {
      env.fromSource(idleAfter([1, 2, 3], []), 'numbers').rebalance().sinkTo(new CollectingSink());
    });
    const [producer, consumer] = job.jobGraph.vertices.map((v) => job.task(v.name));
    await waitUntil(() => consumer!.state === 'RUNNING');
    await producer!.cancel();
    await job.whenAllTerminal();
    expect(states(job.changes.get(consumer!))).toEqual(['INITIALIZING', 'RUNNING', 'CANCELING', 'CANCELED']);
  });

  it('fails a consumer whose producer failed, with the input it came from and the producer failure', async () => {
    const job = await runJob((env) => {
      env
        .fromCollection([1, 2, 3])
        .map((x: number) => {
          if (x === 2) throw new TypeError('bad record');
          return x;
        })
        .rebalance()
        .sinkTo(new CollectingSink());
    });
    await job.whenAllTerminal();
    const [producer, consumer] = job.jobGraph.vertices.map((v) => job.task(v.name));
    expect(job.changes.get(producer!)!.at(-1)!.failure!.message.split('\n')[0]).toBe('Map (1/1) failed: bad record');
    expect(job.changes.get(consumer!)!.at(-1)!.failure).toEqual({
      code: 'PARTITION_RELEASED',
      message: `input from ${job.jobGraph.vertices[0]!.name} subtask 0 failed: the producer ${job.jobGraph.vertices[0]!.name} (1/1) failed: Map (1/1) failed: bad record`,
    });
  });

  it('keeps a WeirError code thrown by user code', async () => {
    const { WeirError } = await import('@weir/common');
    const job = await runJob((env) => {
      env.fromCollection([1]).filter(() => {
        throw new WeirError('MY_CODE', 'custom');
      });
    });
    await job.whenAllTerminal();
    const failure = job.changes.get(job.task(job.jobGraph.vertices[0]!.name))!.at(-1)!.failure!;
    expect(failure.code).toBe('MY_CODE');
    expect(failure.message.split('\n')[0]).toBe('Filter (1/1) failed: custom');
  });

  it('cancels a task waiting on a sink write that never completes, and closes its operators', async () => {
    const sink = new CollectingSink<number>(() => new Promise<void>(() => {}));
    const job = await runJob((env) => {
      env.fromCollection([1, 2, 3]).sinkTo(sink);
    });
    const task = job.task(job.jobGraph.vertices[0]!.name);
    await waitUntil(() => sink.records.length === 1);
    await task.cancel();
    expect(task.state).toBe('CANCELED');
    expect(sink.values()).toEqual([1]);
    expect(sink.events).toEqual(['close 0']);
  });

  it('a cancel during a sink writer\'s creation aborts the connector\'s signal and reports CANCELED only after the late writer is closed', async () => {
    // A Kafka sink's writer waits for a broker while it is created; one that appeared after
    // the cancel had reported CANCELED would begin a transaction that fences the next attempt's.
    const events: string[] = [];
    let release: () => void = () => {};
    let creating = false;
    const sink = {
      createWriter: async (context: ConnectorContext): Promise<SinkWriter<number>> => {
        context.signal?.addEventListener('abort', () => events.push('signal aborted'));
        creating = true;
        await new Promise<void>((resolve) => (release = resolve));
        events.push('writer created');
        return { write: () => {}, flush: async () => {}, close: async () => void events.push('writer closed') };
      },
    };
    const job = await runJob((env) => {
      env.fromSource(idleAfter([1], []), 'numbers').sinkTo(sink);
    });
    const task = job.task(job.jobGraph.vertices[0]!.name);
    await waitUntil(() => creating);
    const canceled = task.cancel().then(() => events.push('CANCELED'));
    await waitUntil(() => events.includes('signal aborted'));
    release();
    await canceled;
    expect(events).toEqual(['signal aborted', 'writer created', 'writer closed', 'CANCELED']);
  });

  it('cancels a task that was never started at once', async () => {
    const changes: string[] = [];
    const job = await runJob((env) => {
      env.fromCollection([1]).sinkTo(new CollectingSink());
    });
    const task = new Task({
      deployment: { jobId: 'j', attempt: 0, jobName: 'x', vertexId: job.jobGraph.vertices[0]!.id, subtaskIndex: 0, parallelism: 1, inputs: [] },
      graph: job.graph,
      network: { taskManagerId: 'tm', partitions: new PartitionRegistry(), remote: { connect: () => expect.unreachable() } },
      logger: silentLogger(),
      onStateChange: (c) => changes.push(c.state),
    });
    expect(task.state).toBe('DEPLOYING');
    await task.cancel();
    expect(changes).toEqual(['CANCELED']);
    task.start();
    expect(changes).toEqual(['CANCELED']);
  });

  it('fails with DEPLOYMENT_MISMATCH when the vertex is not in the rebuilt graph or the parallelism differs', async () => {
    const job = await runJob(
      (env) => {
        env.fromCollection([1]).sinkTo(new CollectingSink());
      },
      { deploy: (d) => ({ ...d, parallelism: 3 }) },
    );
    await job.whenAllTerminal();
    const failure = job.changes.get(job.task(job.jobGraph.vertices[0]!.name))!.at(-1)!.failure!;
    expect(failure.code).toBe('DEPLOYMENT_MISMATCH');
    expect(failure.message).toContain('was deployed with parallelism 3 but has 1 here');

    const missing = await runJob(
      (env) => {
        env.fromCollection([1]).sinkTo(new CollectingSink());
      },
      { deploy: (d) => ({ ...d, vertexId: 'f'.repeat(32) }) },
    );
    await missing.whenAllTerminal();
    const notFound = missing.changes.get(missing.task(missing.jobGraph.vertices[0]!.name))!.at(-1)!.failure!;
    expect(notFound.code).toBe('DEPLOYMENT_MISMATCH');
    expect(notFound.message).toContain(`vertex ${'f'.repeat(32)} is not in job`);
  });
});
