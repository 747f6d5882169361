import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, listCheckpoints, ProcessCluster, writeJobFile } from '@weir/integration-tests';
import { timeRunningToFinished } from '../job-timing.ts';
import type { Scenario } from '../scenario.ts';
import { median } from '../stats.ts';
import { RECORDS, SHUFFLE_JOB } from './shuffle.ts';

const ROUNDS = 3;
const STATE_KEYS = 2_000_000;
const VALUE_BYTES = 100;

/** Fills ValueState with STATE_KEYS distinct keys of ~VALUE_BYTES each (~200 MB), checkpointing every 2 s. */
const BIG_STATE_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

class Keep extends KeyedProcessFunction<number, number, number> {
  private value!: ValueState<string>;
  override open(): void {
    this.value = this.getRuntimeContext().getState(new ValueStateDescriptor('value', Types.STRING));
  }
  processElement(i: number, _ctx: KeyedProcessContext<number>, out: Collector<number>): void {
    this.value.update('${'x'.repeat(VALUE_BYTES - 8)}' + String(i).padStart(8, '0'));
    out.collect(i);
  }
}

export default function bigState(env: StreamExecutionEnvironment) {
  env.setParallelism(2);
  env.enableCheckpointing(2000);
  env.fromSource(new DataGeneratorSource((i: number) => i, ${STATE_KEYS}, RateLimiterStrategy.noOp()), 'keys').uid('keys')
    .keyBy((i: number) => i)
    .process(new Keep()).uid('keep')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

async function runShuffle(cluster: ProcessCluster, args: string[]): Promise<number> {
  const submit = await cluster.weir(['run', '--detached', writeJobFile(SHUFFLE_JOB), '--', ...args]);
  if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
  const ms = await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout));
  return RECORDS / (ms / 1000);
}

export const checkpointOverhead: Scenario = {
  name: 'checkpoint-overhead',
  description: `shuffle (${RECORDS / 1e6}M records) with exactly-once checkpoints every second vs none, ${ROUNDS} rounds alternated; sync pause with ~${(STATE_KEYS * VALUE_BYTES) / 1e6} MB of heap keyed state`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'weir-bench-ckpt-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 1, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    try {
      // Alternated, the order swapped every round, so a noisy neighbour weighs on both: the median of the rounds' ratios.
      const withoutRates: number[] = [];
      const withRates: number[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        let w: number;
        let c: number;
        if (round % 2 === 0) {
          w = await runShuffle(cluster, []);
          c = await runShuffle(cluster, ['1000']);
        } else {
          c = await runShuffle(cluster, ['1000']);
          w = await runShuffle(cluster, []);
        }
        withoutRates.push(w);
        withRates.push(c);
        ratios.push(c / w);
      }
      const without = median(withoutRates);
      const withCheckpoints = median(withRates);
      const ratio = median(ratios);

      const submit = await cluster.weir(['run', '--detached', writeJobFile(BIG_STATE_JOB)]);
      if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
      const jobId = jobIdFrom(submit.stdout);
      await timeRunningToFinished(cluster.client, jobId);
      const { checkpoints } = await listCheckpoints(cluster.client, jobId);
      const completed = checkpoints.filter((c) => c.status === 'COMPLETED');
      const biggest = completed.reduce((a, b) => (Number(b.stateBytes) > Number(a.stateBytes) ? b : a));
      const longestSync = Math.max(...completed.map((c) => c.syncMs));
      return {
        figures: {
          recordsPerSecondWithout: Math.round(without),
          recordsPerSecondWith: Math.round(withCheckpoints),
          throughputRatio: ratio,
          longestSyncMs: longestSync,
          biggestCheckpointBytes: Number(biggest.stateBytes),
          biggestCheckpointSyncMs: biggest.syncMs,
          biggestCheckpointMs: biggest.durationMs,
        },
        rows: [
          ['without checkpoints (median)', Math.round(without).toLocaleString('en'), 'records/s'],
          ['exactly-once every 1 s (median)', Math.round(withCheckpoints).toLocaleString('en'), 'records/s'],
          [`ratio (median of ${ROUNDS} alternated)`, ratio.toFixed(3), ratios.map((r) => r.toFixed(3)).join(' ')],
          ['biggest checkpoint', (Number(biggest.stateBytes) / 1e6).toFixed(1), 'MB'],
          ['  its sync part (max task)', String(biggest.syncMs), 'ms'],
          ['  its duration', String(biggest.durationMs), 'ms'],
          ['longest sync part, any checkpoint', String(longestSync), 'ms'],
        ],
      };
    } finally {
      await cluster.stop();
    }
  },
};
