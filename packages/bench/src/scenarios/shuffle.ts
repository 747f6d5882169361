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

/** How the shuffle job is measured with metrics on: Prometheus scrapes every process this often, as a busy setup would. */
const SCRAPE_INTERVAL_MS = 1_000;

/**
 * One run of the job on a fresh cluster: with metrics on (every process serves /metrics,
 * scraped every second, and TaskManagers send task metrics every second) or off
 * (metrics.fetcher.update-interval 0, no endpoint). Resolves with the job's milliseconds.
 */
async function timeShuffle(metrics: boolean, profileDir: string | undefined): Promise<number> {
  const cluster = await ProcessCluster.start({
    taskManagers: 2,
    slots: 1,
    prometheus: metrics,
    config: { 'metrics.fetcher.update-interval': metrics ? '1s' : 0 },
    taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  let scraping = metrics;
  const scraper = (async () => {
    while (scraping) {
      await Promise.all([cluster.jobManager, ...cluster.taskManagers].map((p) => fetch(cluster.metricsUrl(p)).then((r) => r.text())));
      await new Promise((resolve) => setTimeout(resolve, SCRAPE_INTERVAL_MS));
    }
  })();
  try {
    const submit = await cluster.weir(['run', '--detached', writeJobFile(SHUFFLE_JOB)]);
    if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
    return await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout));
  } finally {
    scraping = false;
    await scraper;
    await cluster.stop();
  }
}

export const shuffle: Scenario = {
  name: 'shuffle',
  description: `generator -> keyBy -> ValueState count -> discard; ${RECORDS / 1e6}M records, ${KEYS} keys, parallelism 2 on 2 TaskManagers; metrics off, on, off, on (best of each)`,
  async run({ profileDir }) {
    // Alternating, on fresh clusters, so a noisy neighbour hurts both modes alike; the best run of each counts.
    const off: number[] = [];
    const on: number[] = [];
    for (const metrics of [false, true, false, true]) (metrics ? on : off).push(await timeShuffle(metrics, metrics ? profileDir : undefined));
    const ms = Math.min(...on);
    const weir = RECORDS / (ms / 1000);
    const weirOff = RECORDS / (Math.min(...off) / 1000);
    const baseline = baselineRecordsPerSecond();
    return {
      figures: {
        recordsPerSecond: Math.round(weir),
        recordsPerSecondMetricsOff: Math.round(weirOff),
        metricsOnToOffRatio: weir / weirOff,
        baselineRecordsPerSecond: Math.round(baseline),
        ratioToBaseline: weir / baseline,
        seconds: ms / 1000,
      },
      rows: [
        ['throughput, metrics on', Math.round(weir).toLocaleString('en'), 'records/s'],
        ['throughput, metrics off', Math.round(weirOff).toLocaleString('en'), 'records/s'],
        ['metrics on / off', (weir / weirOff).toFixed(3), ''],
        ['job time, metrics on', (ms / 1000).toFixed(2), 's'],
        ['single-process loop', Math.round(baseline).toLocaleString('en'), 'records/s'],
        ['ratio to the loop', (weir / baseline).toFixed(3), ''],
      ],
    };
  },
};
