import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, ProcessCluster, writeJobFile } from '@weir/integration-tests';
import { timeRunningToFinished } from '../job-timing.ts';
import type { Scenario, ScenarioResult } from '../scenario.ts';
import { median } from '../stats.ts';

const INTERVAL_MS = 2_000;
const COUNT_RECORDS = 1_000_000;
const COUNT_ROUNDS = 3;

/** A keyed count over 100k keys, as fast as the source goes. args: checkpoint dir, backend ('heap' | 'level') */
const COUNT_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, LevelStateBackend, FsStateBackend, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

class Count extends KeyedProcessFunction<number, number, number> {
  private count!: ValueState<number>;
  override open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER));
  }
  processElement(key: number, _ctx: KeyedProcessContext<number>, out: Collector<number>): void {
    const next = (this.count.value() ?? 0) + 1;
    this.count.update(next);
    out.collect(next);
  }
}

export default function keyedCount(env: StreamExecutionEnvironment, args: string[]) {
  const [checkpointDir, backend] = args;
  env.setParallelism(2);
  env.enableCheckpointing(${INTERVAL_MS});
  env.setStateBackend(backend === 'level' ? new LevelStateBackend(checkpointDir) : new FsStateBackend(checkpointDir));
  env.fromSource(new DataGeneratorSource((i: number) => i % 100000, ${COUNT_RECORDS}, RateLimiterStrategy.noOp()), 'keys').uid('keys')
    .keyBy((k: number) => k)
    .process(new Count()).uid('count')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

async function timeCount(cluster: ProcessCluster, checkpointDir: string, backend: 'heap' | 'level'): Promise<number> {
  const submit = await cluster.weir(['run', '--detached', writeJobFile(COUNT_JOB), '--', checkpointDir, backend]);
  if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
  return COUNT_RECORDS / ((await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout))) / 1000);
}

/** 2 TaskManagers of 1 slot, their local state below `dir`, CPU profiles into `profileDir` when given. */
export function levelCluster(dir: string, profileDir: string | undefined): Promise<ProcessCluster> {
  return ProcessCluster.start({
    taskManagers: 2,
    slots: 1,
    config: { 'state.backend.rocksdb.localdir': join(dir, 'local') },
    taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
}

/** The keyed count on the heap and on the LevelDB backend, alternated COUNT_ROUNDS times on `cluster`: the ratio is the median of the rounds' ratios. */
export async function keyedCountRounds(cluster: ProcessCluster, dir: string): Promise<ScenarioResult> {
  const heapRates: number[] = [];
  const levelRates: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < COUNT_ROUNDS; round++) {
    heapRates.push(await timeCount(cluster, join(dir, `count-heap-${round}`), 'heap'));
    levelRates.push(await timeCount(cluster, join(dir, `count-level-${round}`), 'level'));
    ratios.push(levelRates[round]! / heapRates[round]!);
  }
  const heapRate = median(heapRates);
  const levelRate = median(levelRates);
  const levelOverHeap = median(ratios);
  return {
    figures: { heapCountRecordsPerSecond: Math.round(heapRate), levelCountRecordsPerSecond: Math.round(levelRate), levelOverHeapThroughput: levelOverHeap },
    rows: [
      ['keyed count, heap (median)', Math.round(heapRate).toLocaleString('en'), 'records/s'],
      ['keyed count, LevelDB (median)', Math.round(levelRate).toLocaleString('en'), 'records/s'],
      [`LevelDB / heap (median of ${COUNT_ROUNDS} alternated)`, levelOverHeap.toFixed(3), ratios.map((r) => r.toFixed(2)).join(' ')],
    ],
  };
}

/** Only the keyed count part of `incremental`, with TaskManager CPU profiles under --profile. */
export const levelCount: Scenario = {
  name: 'level-count',
  description: `keyed count (${COUNT_RECORDS / 1e6}M records, 100k keys) on LevelDB vs heap, ${COUNT_ROUNDS} alternated rounds (process cluster; the count part of incremental)`,
  async run({ profileDir }) {
    const dir = mkdtempSync(join(tmpdir(), 'weir-bench-level-count-'));
    const cluster = await levelCluster(dir, profileDir);
    try {
      return await keyedCountRounds(cluster, dir);
    } finally {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
