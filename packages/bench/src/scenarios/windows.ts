import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, listCheckpoints, ProcessCluster, writeJobFile } from '@weir/integration-tests';
import { timeRunningToFinished } from '../job-timing.ts';
import type { Scenario } from '../scenario.ts';
import { RECORDS, SHUFFLE_JOB } from './shuffle.ts';

const KEYS = 10_000;
const WINDOW_MS = 1_000;
/**
 * Event time moves 1 ms per this many records of a reader: with two readers (each a half of
 * the records, side by side in event time) 100 k records per 1 s window, 10 per key.
 */
const RECORDS_PER_MS_PER_READER = 50;
const CHECKPOINT_INTERVAL_MS = 1_000;

/** The shuffle's records, with event time, counted per key in 1 s tumbling windows of event time. */
const WINDOW_JOB = `
import { StreamExecutionEnvironment, WatermarkStrategy, TumblingEventTimeWindows, type AggregateFunction } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

type Event = { key: string; amount: number; time: number };

const count: AggregateFunction<Event, number, number> = { createAccumulator: () => 0, add: (_e, n) => n + 1, getResult: (n) => n, merge: (a, b) => a + b };

export default function windows(env: StreamExecutionEnvironment, args: string[]) {
  env.setParallelism(2);
  env.enableCheckpointing(Number(args[0]));
  env.fromSource(
      new DataGeneratorSource((i: number): Event => ({ key: 'user-' + (i % ${KEYS}), amount: i % 100, time: Math.floor((i % ${RECORDS / 2}) / ${RECORDS_PER_MS_PER_READER}) }), ${RECORDS}, RateLimiterStrategy.noOp()),
      WatermarkStrategy.forBoundedOutOfOrderness<Event>(100).withTimestampAssigner((e) => e.time), 'generator').uid('generator')
    .keyBy((e: Event) => e.key)
    .window(TumblingEventTimeWindows.of(${WINDOW_MS}))
    .aggregate(count).uid('count')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

async function recordsPerSecond(cluster: ProcessCluster, job: string, args: string[]): Promise<{ rate: number; checkpoints: number }> {
  const submit = await cluster.weir(['run', '--detached', writeJobFile(job), '--', ...args]);
  if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
  const jobId = jobIdFrom(submit.stdout);
  const ms = await timeRunningToFinished(cluster.client, jobId);
  const { checkpoints } = await listCheckpoints(cluster.client, jobId);
  return { rate: RECORDS / (ms / 1000), checkpoints: checkpoints.filter((c) => c.status === 'COMPLETED').length };
}

export const windows: Scenario = {
  name: 'windows',
  description:
    `event-time tumbling windows (${KEYS} keys, ${WINDOW_MS / 1000} s windows, count per key and window) vs the shuffle job, ` +
    `${RECORDS / 1e6}M records each, parallelism 2 on 2 TaskManagers, exactly-once checkpoints every ${CHECKPOINT_INTERVAL_MS} ms`,
  async run({ profileDir }) {
    const dir = mkdtempSync(join(tmpdir(), 'weir-bench-windows-'));
    const cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 1,
      config: { 'state.checkpoints.dir': join(dir, 'checkpoints') },
      taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    try {
      const interval = String(CHECKPOINT_INTERVAL_MS);
      const shuffle = await recordsPerSecond(cluster, SHUFFLE_JOB, [interval]);
      const windowed = await recordsPerSecond(cluster, WINDOW_JOB, [interval]);
      const ratio = windowed.rate / shuffle.rate;
      return {
        figures: {
          windowRecordsPerSecond: Math.round(windowed.rate),
          shuffleRecordsPerSecond: Math.round(shuffle.rate),
          ratioToShuffle: ratio,
          windowCheckpoints: windowed.checkpoints,
          shuffleCheckpoints: shuffle.checkpoints,
        },
        rows: [
          ['tumbling windows, checkpoints on', Math.round(windowed.rate).toLocaleString('en'), 'records/s'],
          ['shuffle, checkpoints on', Math.round(shuffle.rate).toLocaleString('en'), 'records/s'],
          ['windows / shuffle', ratio.toFixed(3), ''],
          ['checkpoints completed (windows, shuffle)', `${windowed.checkpoints}, ${shuffle.checkpoints}`, ''],
        ],
      };
    } finally {
      await cluster.stop();
    }
  },
};
