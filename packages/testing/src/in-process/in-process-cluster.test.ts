import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Boundedness,
  InputStatus,
  RestartStrategies,
  RichMapFunction,
  Time,
  TumblingEventTimeWindows,
  Types,
  ValueStateDescriptor,
  WatermarkStrategy,
  type ConnectorContext,
  type ReaderOutput,
  type Source,
  type SourceReader,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { MiniCluster } from '../mini-cluster.ts';
import { CollectSink } from '../collect/collect-sink.ts';
import { TimestampedCollectionSource } from '../sources/timestamped-collection-source.ts';

/** Words with event times: counted per word in 10 ms tumbling windows. */
function windowedCounts(env: StreamExecutionEnvironment): void {
  const words: [string, number][] = [['a', 1], ['b', 2], ['a', 3], ['a', 12], ['b', 19], ['b', 25]];
  env
    .fromSource(TimestampedCollectionSource.ascending(words), WatermarkStrategy.noWatermarks(), 'words')
    .map((w) => ({ word: w, n: 1 }))
    .keyBy((c) => c.word)
    .window(TumblingEventTimeWindows.of(Time.milliseconds(10)))
    .reduce((x, y) => ({ word: x.word, n: x.n + y.n }))
    .map((c) => `${c.word}=${c.n}`)
    .sinkTo(new CollectSink<string>('counts'));
}

/** Emits `before`, then nothing until `gate` resolves, then `after` and ends: a job that runs until the test lets it finish. */
class GatedSource implements Source<number> {
  readonly boundedness = Boundedness.BOUNDED;

  constructor(
    private readonly before: readonly number[],
    private readonly gate: Promise<void>,
    private readonly after: readonly number[],
  ) {}

  createReader(): SourceReader<number> {
    const pending = [...this.before];
    let opened = false;
    void this.gate.then(() => {
      opened = true;
      pending.push(...this.after);
    });
    return {
      pollNext: (output: ReaderOutput<number>) => {
        const next = pending.shift();
        if (next !== undefined) output.collect(next);
        if (pending.length > 0) return InputStatus.MORE_AVAILABLE;
        return opened ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
      },
      isAvailable: () => (opened ? Promise.resolve() : this.gate),
    };
  }
}

/** 0..count-1 on subtask 0, pausing after `pauseAt` until `gate` resolves; restores to its position after a failure. */
class RestorableGatedSource implements Source<number> {
  readonly boundedness = Boundedness.BOUNDED;

  constructor(
    private readonly count: number,
    private readonly pauseAt: number,
    private readonly gate: Promise<void>,
  ) {}

  createReader(context: ConnectorContext, restored?: readonly unknown[]): SourceReader<number> {
    let next = context.subtaskIndex === 0 ? (restored?.find((s): s is number => typeof s === 'number') ?? 0) : this.count;
    let opened = false;
    void this.gate.then(() => (opened = true));
    return {
      pollNext: (output: ReaderOutput<number>) => {
        if (next >= this.count) return InputStatus.END_OF_INPUT;
        if (next >= this.pauseAt && !opened) return InputStatus.NOTHING_AVAILABLE;
        output.collect(next++);
        return next < this.count ? InputStatus.MORE_AVAILABLE : InputStatus.END_OF_INPUT;
      },
      isAvailable: () => (opened || next < this.pauseAt ? Promise.resolve() : this.gate),
      snapshotState: () => next,
    };
  }
}

/** Counts per key in keyed state: a restore that lost or repeated state shows in the output. */
class Numbered extends RichMapFunction<number, string> {
  #seen!: ValueState<number>;

  override open(): void {
    this.#seen = this.getRuntimeContext().getState(new ValueStateDescriptor('seen', Types.NUMBER, 0));
  }

  map(n: number): string {
    const seen = (this.#seen.value() ?? 0) + 1;
    this.#seen.update(seen);
    return `${n % 4}:${seen}`;
  }
}

let cluster: MiniCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('MiniCluster in-process', () => {
  it('runs a job function in this process, with windows over subtasks and the CollectSink committed at the final checkpoint', async () => {
    cluster = new MiniCluster({ mode: 'in-process', taskManagers: 2 });
    await cluster.start();
    const execution = await cluster.execute(windowedCounts, { parallelism: 2 });
    await execution.result();
    expect(execution.collected<string>('counts').sort()).toEqual(['a=1', 'a=2', 'b=1', 'b=1', 'b=1']);
    expect(execution.statuses).toEqual(['RUNNING', 'FINISHED']);
  });

  it('triggers a checkpoint on demand: what came before it is committed while the job still runs', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const job = (env: StreamExecutionEnvironment): void => {
      env.fromSource(new GatedSource([1, 2, 3], gate, [4, 5, 6]), WatermarkStrategy.noWatermarks(), 'n').sinkTo(new CollectSink<number>('numbers'));
    };
    cluster = new MiniCluster({ mode: 'in-process' });
    await cluster.start();
    const execution = await cluster.execute(job);
    const id = await cluster.triggerCheckpoint(execution.jobId);
    expect(id).toBe(1);
    expect(execution.collected<number>('numbers')).toEqual([1, 2, 3]);
    open();
    await execution.result();
    expect(execution.collected<number>('numbers')).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('fails a task over (failTask): every task restarts from the last in-memory checkpoint and the committed output is exact', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const job = (env: StreamExecutionEnvironment): void => {
      env.setRestartStrategy(RestartStrategies.fixedDelayRestart(2, 0));
      env
        .fromSource(new RestorableGatedSource(40, 20, gate), WatermarkStrategy.noWatermarks(), 'numbers')
        .keyBy((n) => n % 4)
        .map(new Numbered())
        .sinkTo(new CollectSink<string>('numbered'));
    };
    cluster = new MiniCluster({ mode: 'in-process', taskManagers: 2 });
    await cluster.start();
    const execution = await cluster.execute(job, { parallelism: 2 });
    const done = execution.result();
    expect(await cluster.triggerCheckpoint(execution.jobId)).toBe(1);
    const committed = execution.collected<string>('numbered').length;
    cluster.failTask(execution.jobId, 'numbers', 0);
    await vi.waitFor(() => expect(execution.statuses).toEqual(['RUNNING', 'RESTARTING', 'RUNNING']), { timeout: 30_000 });
    // Restored, nothing is committed again: the checkpoint's output stays as it was.
    expect(execution.collected<string>('numbered')).toHaveLength(committed);
    open();
    await done;
    const expected = Array.from({ length: 40 }, (_, n) => `${n % 4}:${Math.floor(n / 4) + 1}`);
    expect(execution.collected<string>('numbered').sort()).toEqual(expected.sort());
    expect(() => cluster!.failTask(execution.jobId, 'numbers', 0)).toThrow(expect.objectContaining({ code: 'NO_SUCH_TASK' }));
  });

  it('fails the job once its restart strategy gives up, with the injected cause', async () => {
    const job = (env: StreamExecutionEnvironment): void => {
      env.setRestartStrategy(RestartStrategies.noRestart());
      env.fromSource(new RestorableGatedSource(10, 5, new Promise(() => {})), WatermarkStrategy.noWatermarks(), 'numbers').sinkTo(new CollectSink<number>('never'));
    };
    cluster = new MiniCluster({ mode: 'in-process' });
    await cluster.start();
    const execution = await cluster.execute(job);
    await vi.waitFor(() => cluster!.failTask(execution.jobId, 'numbers'), { timeout: 30_000 });
    await expect(execution.result()).rejects.toMatchObject({ code: 'JOB_FAILED', message: expect.stringContaining('TASK_FAILED_BY_TEST') });
  });

  it('reports a failing job with its cause', async () => {
    cluster = new MiniCluster({ mode: 'in-process' });
    await cluster.start();
    const execution = await cluster.execute((env: StreamExecutionEnvironment) => {
      env
        .fromSource(TimestampedCollectionSource.ascending([[1, 1]]), WatermarkStrategy.noWatermarks(), 'n')
        .map((): number => {
          throw new Error('no odd numbers here');
        })
        .sinkTo(new CollectSink<number>('never'));
    });
    await expect(execution.result()).rejects.toMatchObject({ code: 'JOB_FAILED', message: expect.stringContaining('no odd numbers here') });
  });

  it('refuses what only the processes mode can do, and a job function in the processes mode', async () => {
    cluster = new MiniCluster({ mode: 'in-process' });
    await cluster.start();
    expect(() => cluster!.killTaskManager(1)).toThrow(expect.objectContaining({ code: 'MODE_UNSUPPORTED' }));
    await expect(new MiniCluster({ mode: 'in-process' }).start()).rejects.toMatchObject({ code: 'IN_PROCESS_CLUSTER_RUNNING' });
    await expect(new MiniCluster().execute(windowedCounts)).rejects.toMatchObject({ code: 'MODE_UNSUPPORTED' });
  });
});
