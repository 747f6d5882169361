import { afterEach, describe, expect, it } from 'vitest';
import { Boundedness, InputStatus, Time, TumblingEventTimeWindows, WatermarkStrategy, type ReaderOutput, type Source, type SourceReader, type StreamExecutionEnvironment } from '@weir/api';
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
