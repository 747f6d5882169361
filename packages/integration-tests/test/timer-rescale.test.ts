import { afterEach, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, getJob, jobIdFrom, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';

const KEYS = 100;
const RECORDS = 3_000;
const SLOW = 200;
const FAST = 5_000;

/**
 * args: output dir, records, records/s, processing-time timer time (ms since the epoch). Events
 * 0 … KEYS-1 (one per key) set an event-time timer at 1e9 + key number and a processing-time
 * timer at the given time, and put their key into keyed state; the rest only keep the source
 * busy. onTimer writes the timer, the parallelism it fired at and whether the keyed state it
 * reads is its key's.
 */
const TIMERS = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, WatermarkStrategy, CheckpointingMode,
  type ValueState, type Collector, type KeyedProcessContext, type OnTimerContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type Event = { i: number; key: string };

class SetTimers extends KeyedProcessFunction<string, Event, string> {
  private owner!: ValueState<string>;
  constructor(private readonly fireAt: number) { super(); }
  override open(): void {
    this.owner = this.getRuntimeContext().getState(new ValueStateDescriptor('owner', Types.STRING));
  }
  processElement(e: Event, ctx: KeyedProcessContext<string>): void {
    if (e.i >= ${KEYS}) return;
    this.owner.update(e.key);
    ctx.timerService().registerEventTimeTimer(1e9 + Number(e.key.slice(1)));
    ctx.timerService().registerProcessingTimeTimer(this.fireAt);
  }
  override onTimer(timestamp: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
    const ok = this.owner.value() === ctx.getCurrentKey() ? 'ok' : 'wrong-state:' + this.owner.value();
    out.collect(ctx.timeDomain() + ' ' + ctx.getCurrentKey() + ' ' + timestamp + ' p=' + this.getRuntimeContext().getNumberOfParallelSubtasks() + ' ' + ok);
  }
}

export default function timers(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, fireAt] = args;
  env.enableCheckpointing(300);
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ i, key: 'k' + (i % ${KEYS}) }), Number(records), RateLimiterStrategy.perSecond(Number(rate))),
      WatermarkStrategy.forMonotonousTimestamps<Event>().withTimestampAssigner((e) => e.i), 'events')
    .uid('events').setParallelism(1)
    .keyBy((e) => e.key)
    .process(new SetTimers(Number(fireAt))).uid('timers')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

describe('timers across savepoints and rescaling', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps pending event-time and processing-time timers through stop-with-savepoint at p=2 -> 3 -> 1: each fires once, on its key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-timers-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 3, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const job = writeJobFile(TIMERS);
    // Due once the job ran at p=2 and p=3 and was stopped twice; the last run finds them in the past and fires them at once.
    const fireAt = Date.now() + 25_000;
    const args = (rate: number) => ['--', output, String(RECORDS), String(rate), String(fireAt)];

    let savepoint: string | undefined;
    for (const parallelism of [2, 3]) {
      const restore = savepoint === undefined ? [] : ['-s', savepoint];
      const run = await cluster.weir(['run', '--detached', '-p', String(parallelism), ...restore, job, ...args(SLOW)]);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const jobId = jobIdFrom(run.stdout);
      await waitForStatus(cluster.client, jobId, ['RUNNING']);
      await waitForCheckpoints(cluster.client, jobId, (cps) => completedCount(cps) >= 2, 30_000);
      const stop = await cluster.weir(['stop', '--savepointPath', join(dir, 'savepoints'), jobId]);
      expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${cluster.logs()}`).toBe(0);
      savepoint = savepointPathFrom(stop);
      const timers = (await getJob(cluster.client, jobId)).vertices.find((v) => v.operators.some((o) => o.uid === 'timers'))!;
      expect(timers.parallelism).toBe(parallelism);
      // Nothing fired: no watermark reached 1e9, and the processing time is still before fireAt.
      expect(readCommittedLines(output), `p=${parallelism}`).toEqual([]);
    }
    expect(Date.now(), 'the runs at p=2 and p=3 took longer than the 25 s the processing-time timers wait').toBeLessThan(fireAt);
    await new Promise((resolve) => setTimeout(resolve, fireAt - Date.now() + 500));

    const last = await cluster.weir(['run', '-p', '1', '-s', savepoint!, job, ...args(FAST)], { timeoutMs: 60_000 });
    expect(last.code, `${last.stdout}\n${last.stderr}\n${cluster.logs()}`).toBe(0);
    const expected: string[] = [];
    for (let k = 0; k < KEYS; k++) {
      expected.push(`EVENT_TIME k${k} ${1e9 + k} p=1 ok`, `PROCESSING_TIME k${k} ${fireAt} p=1 ok`);
    }
    expect(readCommittedLines(output).sort()).toEqual(expected.sort());
  });
});
