import { jobIdFrom, ProcessCluster, writeJobFile } from '@weir/integration-tests';
import { timeRunningToFinished } from '../job-timing.ts';
import type { Scenario } from '../scenario.ts';

export const RECORDS = 10_000_000;
const KEYS = 10_000;

/** The record both the job and the baseline make from an index. */
const RECORD_EXPRESSION = `({ key: 'user-' + (i % ${KEYS}), amount: i % 100 })`;

/** The shuffle job; `args[0]`, when given, is a checkpoint interval in ms. */
export const SHUFFLE_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

type Event = { key: string; amount: number };

class Count extends KeyedProcessFunction<string, Event, number> {
  private count!: ValueState<number>;
  override open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER));
  }
  processElement(_e: Event, _ctx: KeyedProcessContext<string>, out: Collector<number>): void {
    const next = (this.count.value() ?? 0) + 1;
    this.count.update(next);
    out.collect(next);
  }
}

export default function shuffle(env: StreamExecutionEnvironment, args: string[]) {
  env.setParallelism(2);
  // args[0]: checkpoint interval in ms (checkpointing off when absent).
  if (args[0]) env.enableCheckpointing(Number(args[0]));
  env.fromSource(new DataGeneratorSource((i: number): Event => ${RECORD_EXPRESSION}, ${RECORDS}, RateLimiterStrategy.noOp()), 'generator').uid('generator')
    .keyBy((e: Event) => e.key)
    .process(new Count()).uid('count')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** The same keyed count as a plain single-process loop: the yardstick for the ratio. */
function baselineRecordsPerSecond(): number {
  const make = new Function('i', `return ${RECORD_EXPRESSION};`) as (i: number) => { key: string; amount: number };
  const counts = new Map<string, number>();
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < RECORDS; i++) {
    const e = make(i);
    const next = (counts.get(e.key) ?? 0) + 1;
    counts.set(e.key, next);
    sink += next;
  }
  const seconds = (performance.now() - start) / 1000;
  if (sink <= 0) throw new Error('baseline computed nothing');
  return RECORDS / seconds;
}

export const shuffle: Scenario = {
  name: 'shuffle',
  description: `generator -> keyBy -> ValueState count -> discard; ${RECORDS / 1e6}M records, ${KEYS} keys, parallelism 2 on 2 TaskManagers`,
  async run({ profileDir }) {
    const cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 1,
      taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    try {
      const submit = await cluster.weir(['run', '--detached', writeJobFile(SHUFFLE_JOB)]);
      if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
      const ms = await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout));
      const weir = RECORDS / (ms / 1000);
      const baseline = baselineRecordsPerSecond();
      return {
        figures: { recordsPerSecond: Math.round(weir), baselineRecordsPerSecond: Math.round(baseline), ratioToBaseline: weir / baseline, seconds: ms / 1000 },
        rows: [
          ['throughput', Math.round(weir).toLocaleString('en'), 'records/s'],
          ['job time', (ms / 1000).toFixed(2), 's'],
          ['single-process loop', Math.round(baseline).toLocaleString('en'), 'records/s'],
          ['ratio to the loop', (weir / baseline).toFixed(3), ''],
        ],
      };
    } finally {
      await cluster.stop();
    }
  },
};
