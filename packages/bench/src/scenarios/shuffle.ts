import { jobIdFrom, ProcessCluster, writeJobFile } from '@weir/integration-tests';
import { runHandWrittenShuffle } from '../hand-written-shuffle.ts';
import { timeRunningToFinished } from '../job-timing.ts';
import type { Scenario } from '../scenario.ts';
import { median } from '../stats.ts';

export const RECORDS = 10_000_000;
const KEYS = 10_000;

/** The record the job makes from an index: the hand-written shuffle's makeRecord. */
const RECORD_EXPRESSION = `({ key: 'user-' + (i % ${KEYS}), amount: i % 100 })`;

/** The shuffle job; `args[0]`, when not empty, is a checkpoint interval in ms; `args[1]` 'reuse' enables object reuse. */
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
  if (args[1] === 'reuse') env.getConfig().enableObjectReuse();
  env.fromSource(new DataGeneratorSource((i: number): Event => ${RECORD_EXPRESSION}, ${RECORDS}, RateLimiterStrategy.noOp()), 'generator').uid('generator')
    .keyBy((e: Event) => e.key)
    .process(new Count()).uid('count')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** Weir (metrics off, then on) and the hand-written shuffle take turns this many times; the figures are medians. */
const ROUNDS = 3;

/** How the shuffle job is measured with metrics on: Prometheus scrapes every process this often, as a busy setup would. */
const SCRAPE_INTERVAL_MS = 1_000;

/**
 * One run of the job on a fresh cluster: with metrics on (every process serves /metrics,
 * scraped every second, and TaskManagers send task metrics every second) or off
 * (metrics.fetcher.update-interval 0, no endpoint); with object reuse, records to the
 * consumer in the same TaskManager are handed over without encoding. Resolves with records/s.
 */
async function runShuffle(metrics: boolean, profileDir: string | undefined, objectReuse = false): Promise<number> {
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
    const submit = await cluster.weir(['run', '--detached', writeJobFile(SHUFFLE_JOB), ...(objectReuse ? ['--', '', 'reuse'] : [])]);
    if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
    return RECORDS / ((await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout))) / 1000);
  } finally {
    scraping = false;
    await scraper;
    await cluster.stop();
  }
}

interface Round {
  readonly off: number;
  readonly on: number;
  readonly reuse: number;
  readonly handWritten: number;
}

export const shuffle: Scenario = {
  name: 'shuffle',
  description:
    `generator -> keyBy -> ValueState count -> discard; ${RECORDS / 1e6}M records, ${KEYS} keys, parallelism 2 on 2 TaskManagers (metrics off, then on, then object reuse with metrics off), ` +
    `against the same shuffle written by hand (2 producer + 2 consumer processes, msgpackr over TCP); ${ROUNDS} alternated rounds, medians`,
  async run({ profileDir }) {
    // Alternating, on fresh clusters, so a noisy neighbour hurts every contender alike.
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const off = await runShuffle(false, undefined);
      const on = await runShuffle(true, round === 0 ? profileDir : undefined);
      const reuse = await runShuffle(false, undefined, true);
      const handWritten = RECORDS / ((await runHandWrittenShuffle(RECORDS, KEYS)).ms / 1000);
      rounds.push({ off, on, reuse, handWritten });
    }
    const ratio = median(rounds.map((r) => r.on / r.handWritten));
    const ratioOff = median(rounds.map((r) => r.off / r.handWritten));
    const metricsRatio = median(rounds.map((r) => r.on / r.off));
    const ratioReuse = median(rounds.map((r) => r.reuse / r.handWritten));
    const M = (n: number): string => (n / 1e6).toFixed(2);
    return {
      figures: {
        recordsPerSecond: Math.round(median(rounds.map((r) => r.on))),
        recordsPerSecondMetricsOff: Math.round(median(rounds.map((r) => r.off))),
        handWrittenRecordsPerSecond: Math.round(median(rounds.map((r) => r.handWritten))),
        ratioToHandWritten: ratio,
        ratioToHandWrittenMetricsOff: ratioOff,
        metricsOnToOffRatio: metricsRatio,
        recordsPerSecondObjectReuse: Math.round(median(rounds.map((r) => r.reuse))),
        ratioToHandWrittenObjectReuse: ratioReuse,
      },
      rows: [
        ['Weir, metrics on', Math.round(median(rounds.map((r) => r.on))).toLocaleString('en'), 'records/s'],
        ['Weir, metrics off', Math.round(median(rounds.map((r) => r.off))).toLocaleString('en'), 'records/s'],
        ['Weir, object reuse, metrics off', Math.round(median(rounds.map((r) => r.reuse))).toLocaleString('en'), 'records/s'],
        ['hand-written', Math.round(median(rounds.map((r) => r.handWritten))).toLocaleString('en'), 'records/s'],
        ['Weir (metrics on) / hand-written', ratio.toFixed(3), ''],
        ['Weir (metrics off) / hand-written', ratioOff.toFixed(3), ''],
        ['Weir (object reuse) / hand-written', ratioReuse.toFixed(3), ''],
        ['metrics on / off', metricsRatio.toFixed(3), ''],
        ...rounds.map((r, i) => [`round ${i + 1}: off, on, reuse, hand-written`, `${M(r.off)}, ${M(r.on)}, ${M(r.reuse)}, ${M(r.handWritten)}`, 'M records/s'] as const),
      ],
    };
  },
};
