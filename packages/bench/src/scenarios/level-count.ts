import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, ProcessCluster, writeJobFile } from '@weir/integration-tests';
import { timeRunningToFinished } from '../job-timing.ts';
import { cpuSeconds } from '../process-cpu.ts';
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

interface CountRun {
  readonly recordsPerSecond: number;
  /** CPU microseconds of both TaskManagers (all their threads: LevelDB's too) per record: less noisy than the rate on a loaded machine. */
  readonly cpuMicrosPerRecord: number;
}

async function timeCount(cluster: ProcessCluster, checkpointDir: string, backend: 'heap' | 'level'): Promise<CountRun> {
  const cpu = () => cluster.taskManagers.reduce((sum, tm) => sum + cpuSeconds(tm.pid), 0);
  const submit = await cluster.weir(['run', '--detached', writeJobFile(COUNT_JOB), '--', checkpointDir, backend]);
  if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
  const before = cpu();
  const ms = await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout));
  return { recordsPerSecond: COUNT_RECORDS / (ms / 1000), cpuMicrosPerRecord: ((cpu() - before) * 1e6) / COUNT_RECORDS };
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

/**
 * The keyed count on the heap and on the LevelDB backend, alternated COUNT_ROUNDS times on
 * `cluster`: the ratios are the medians of the rounds' ratios. The CPU ratio (heap's CPU per
 * record over LevelDB's) is what the throughput ratio would be if CPU were all a job waited
 * for; it varies far less with other load on the machine.
 */
export async function keyedCountRounds(cluster: ProcessCluster, dir: string): Promise<ScenarioResult> {
  const heap: CountRun[] = [];
  const level: CountRun[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let round = 0; round < COUNT_ROUNDS; round++) {
    heap.push(await timeCount(cluster, join(dir, `count-heap-${round}`), 'heap'));
    level.push(await timeCount(cluster, join(dir, `count-level-${round}`), 'level'));
    ratios.push(level[round]!.recordsPerSecond / heap[round]!.recordsPerSecond);
    cpuRatios.push(heap[round]!.cpuMicrosPerRecord / level[round]!.cpuMicrosPerRecord);
  }
  const heapRate = median(heap.map((r) => r.recordsPerSecond));
  const levelRate = median(level.map((r) => r.recordsPerSecond));
  const heapCpu = median(heap.map((r) => r.cpuMicrosPerRecord));
  const levelCpu = median(level.map((r) => r.cpuMicrosPerRecord));
  const levelOverHeap = median(ratios);
  const cpuRatio = median(cpuRatios);
  return {
    figures: {
      heapCountRecordsPerSecond: Math.round(heapRate),
      levelCountRecordsPerSecond: Math.round(levelRate),
      levelOverHeapThroughput: levelOverHeap,
      heapCountCpuMicrosPerRecord: heapCpu,
      levelCountCpuMicrosPerRecord: levelCpu,
      heapOverLevelCpuPerRecord: cpuRatio,
    },
    rows: [
      ['keyed count, heap (median)', Math.round(heapRate).toLocaleString('en'), 'records/s'],
      ['keyed count, LevelDB (median)', Math.round(levelRate).toLocaleString('en'), 'records/s'],
      [`LevelDB / heap (median of ${COUNT_ROUNDS} alternated)`, levelOverHeap.toFixed(3), ratios.map((r) => r.toFixed(2)).join(' ')],
      ['keyed count CPU, heap (median)', heapCpu.toFixed(2), 'us/record (both TaskManagers)'],
      ['keyed count CPU, LevelDB (median)', levelCpu.toFixed(2), 'us/record (both TaskManagers)'],
      [`heap / LevelDB CPU per record (median of ${COUNT_ROUNDS})`, cpuRatio.toFixed(3), cpuRatios.map((r) => r.toFixed(2)).join(' ')],
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
