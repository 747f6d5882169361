import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { jobIdFrom, listCheckpoints, ProcessCluster, repoRoot, waitForStatus, writeJobFile } from '@weir/integration-tests';
import { cpuSeconds } from '../process-cpu.ts';
import type { Scenario, ScenarioResult } from '../scenario.ts';
import { median } from '../stats.ts';

/** Every run appends a row here, for comparisons over time. */
const CSV = join(repoRoot, 'packages/bench/results/checkpoint-overhead.csv');
const CSV_HEADER =
  'date,commit,config,state_mb,seconds,round,side,records,records_per_s,cpu_ns_per_record,checkpoints,sync_max_ms,sync_median_ms,duration_median_ms,load_average';
/** Bytes of a state value: the state is `state-mb` MB of such values, one per key. */
const VALUE_BYTES = 100;
const INTERVAL_MS = 1_000;
/** After the state is filled, the job runs this long before the measured window opens (JIT, first checkpoints). */
const WARM_UP_MS = 5_000;
/** The job writes its count of records every this many (a power of 2): the count's error at each end of the window. */
const COUNT_EVERY = 4096;

/**
 * An unbounded keyed job: every record rewrites its key's ~VALUE_BYTES value, the keys cycle so
 * that the state holds `keys` values. Each subtask writes its count of records to
 * `<countDir>/count-<subtask>` every COUNT_EVERY records (16 characters written over the last, so a
 * reader never finds the file truncated): how the bench counts records without
 * metrics (which would weigh on both sides). args: countDir, keys, checkpoint interval in ms
 * (0 on the side without checkpoints, which keeps its state in the same backend, as in Flink).
 */
const JOB = `
import { openSync, writeSync } from 'node:fs';
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

const PAD = '${'x'.repeat(VALUE_BYTES - 10)}';

class Keep extends KeyedProcessFunction<number, number, number> {
  private value!: ValueState<string>;
  private seen = 0;
  private fd = -1;
  constructor(private readonly countDir: string) {
    super();
  }
  override open(): void {
    this.value = this.getRuntimeContext().getState(new ValueStateDescriptor('value', Types.STRING));
    this.fd = openSync(this.countDir + '/count-' + this.getRuntimeContext().getIndexOfThisSubtask(), 'w');
  }
  processElement(i: number, _ctx: KeyedProcessContext<number>, out: Collector<number>): void {
    this.value.update(PAD + String(i % 1e10).padStart(10, '0'));
    if ((++this.seen & ${COUNT_EVERY - 1}) === 0) writeSync(this.fd, String(this.seen).padStart(16), 0);
    out.collect(i);
  }
}

export default function checkpointOverhead(env: StreamExecutionEnvironment, args: string[]) {
  const [countDir, keys, interval] = args;
  env.setParallelism(2);
  if (Number(interval) > 0) env.enableCheckpointing(Number(interval));
  env.fromSource(new DataGeneratorSource((i: number) => i % Number(keys), Number.MAX_SAFE_INTEGER, RateLimiterStrategy.noOp()), 'keys').uid('keys')
    .keyBy((k: number) => k)
    .process(new Keep(countDir)).uid('keep')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

export interface CheckpointOverheadOptions {
  /** Length of each side's measured window. */
  readonly seconds: number;
  /** MB of keyed state (values of VALUE_BYTES, one per key). */
  readonly stateMb: number;
  readonly rounds: number;
  /** Cluster configuration (`--config key=value`): `state.backend: level`, `state.backend.incremental: true`, … */
  readonly config: Readonly<Record<string, string>>;
}

interface Run {
  readonly records: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly checkpoints: number;
  readonly syncMaxMs: number;
  readonly syncMedianMs: number;
  readonly durationMedianMs: number;
  readonly load: number;
}

const nsPerRecord = (run: Run): number => (run.cpuSeconds * 1e9) / run.records;

/** Sum of the counts the job's subtasks wrote. */
function countRecords(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.startsWith('count-'))
    .reduce((sum, f) => sum + Number(readFileSync(join(dir, f), 'utf8')), 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One side on a fresh cluster: fill the state, warm up, then a window of `seconds` over which the
 * TaskManagers' CPU time (every thread, /proc) and the records are counted; the checkpoints
 * triggered in the window give the sync part and duration.
 */
async function runSide(options: CheckpointOverheadOptions, checkpoints: boolean, profileDir: string | undefined): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'weir-bench-ckpt-'));
  const countDir = join(dir, 'counts');
  mkdirSync(countDir);
  const keys = Math.max(1, Math.round((options.stateMb * 1e6) / VALUE_BYTES));
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const cluster = await ProcessCluster.start({
    taskManagers: 2,
    slots: 1,
    config: {
      'metrics.fetcher.update-interval': 0,
      'state.checkpoints.dir': join(dir, 'checkpoints'),
      'state.backend.rocksdb.localdir': join(dir, 'local'),
      ...options.config,
    },
    taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  try {
    const submit = await cluster.weir(['run', '--detached', writeJobFile(JOB), '--', countDir, String(keys), String(checkpoints ? INTERVAL_MS : 0)]);
    if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
    const jobId = jobIdFrom(submit.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const fillDeadline = Date.now() + 3_600_000;
    while (countRecords(countDir) < keys) {
      if (Date.now() > fillDeadline) throw new Error('the state was not filled within an hour');
      await sleep(200);
    }
    await sleep(WARM_UP_MS);
    const cpu = (): number => cluster.taskManagers.reduce((sum, tm) => sum + cpuSeconds(tm.pid), 0);
    const startMs = Date.now();
    const [records0, cpu0, t0] = [countRecords(countDir), cpu(), performance.now()];
    await sleep(options.seconds * 1000);
    const [records1, cpu1, t1] = [countRecords(countDir), cpu(), performance.now()];
    const endMs = Date.now();
    const load = loadavg()[0]!;
    const inWindow = checkpoints
      ? (await listCheckpoints(cluster.client, jobId)).checkpoints.filter((c) => c.status === 'COMPLETED' && c.triggerTimeMs >= startMs && c.triggerTimeMs <= endMs)
      : [];
    await cluster.weir(['cancel', jobId]);
    await waitForStatus(cluster.client, jobId, ['CANCELED']);
    return {
      records: records1 - records0,
      seconds: (t1 - t0) / 1000,
      cpuSeconds: cpu1 - cpu0,
      checkpoints: inWindow.length,
      syncMaxMs: inWindow.length === 0 ? 0 : Math.max(...inWindow.map((c) => c.syncMs)),
      syncMedianMs: median(inWindow.map((c) => c.syncMs)),
      durationMedianMs: median(inWindow.map((c) => c.durationMs)),
      load,
    };
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function appendRow(options: CheckpointOverheadOptions, round: number, side: string, run: Run): void {
  mkdirSync(dirname(CSV), { recursive: true });
  if (!existsSync(CSV)) appendFileSync(CSV, `${CSV_HEADER}\n`);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const config = Object.entries(options.config).map(([k, v]) => `${k}=${v}`).join(' ');
  const cells = [
    new Date().toISOString(), commit, `"${config}"`, options.stateMb, run.seconds.toFixed(1), round, side, run.records,
    Math.round(run.records / run.seconds), nsPerRecord(run).toFixed(0), run.checkpoints, run.syncMaxMs,
    Number.isNaN(run.syncMedianMs) ? '' : run.syncMedianMs, Number.isNaN(run.durationMedianMs) ? '' : run.durationMedianMs, run.load.toFixed(2),
  ];
  appendFileSync(CSV, `${cells.join(',')}\n`);
}

/**
 * `pnpm bench checkpoint-overhead [--seconds 30] [--state-mb 1] [--rounds 3] [--config k=v]…`:
 * the keyed job with exactly-once checkpoints every second and without, alternated (the order
 * swapped each round), each side on a fresh cluster for a window of `seconds`; CPU per record of
 * the TaskManagers (the work each side does per record, which another process on the machine
 * moves far less than the rate), the median of the rounds' ratios, and the checkpoints' sync part
 * and duration. With `--profile DIR`, CPU profiles of each side's TaskManagers in DIR/<side>-<round>.
 */
export function checkpointOverhead(options: CheckpointOverheadOptions): Scenario {
  const configText = Object.entries(options.config).map(([k, v]) => `${k}=${v}`).join(' ') || 'heap';
  return {
    name: 'checkpoint-overhead',
    description: `keyed job over ${options.stateMb} MB of state (${configText}) with exactly-once checkpoints every ${INTERVAL_MS / 1000} s vs none, ${options.seconds} s per side, ${options.rounds} rounds alternated, CPU per record`,
    async run({ profileDir }): Promise<ScenarioResult> {
      const rounds: { without: Run; with: Run }[] = [];
      for (let round = 0; round < options.rounds; round++) {
        const side = async (checkpoints: boolean): Promise<Run> => {
          const name = checkpoints ? 'with' : 'without';
          const run = await runSide(options, checkpoints, profileDir && join(profileDir, `${name}-${round}`));
          appendRow(options, round, name, run);
          console.log(`  round ${round} ${name}: ${nsPerRecord(run).toFixed(0)} ns/record, ${Math.round(run.records / run.seconds)} records/s, load ${run.load.toFixed(2)}` +
            (checkpoints ? `, ${run.checkpoints} checkpoints, sync max ${run.syncMaxMs} ms, median duration ${run.durationMedianMs} ms` : ''));
          return run;
        };
        // The order swapped each round, so neither side always runs first on a machine that gets busier.
        const first = await side(round % 2 === 1);
        const second = await side(round % 2 === 0);
        rounds.push(round % 2 === 0 ? { without: first, with: second } : { without: second, with: first });
      }
      const ratios = rounds.map((r) => nsPerRecord(r.without) / nsPerRecord(r.with));
      const ratio = median(ratios);
      const withoutNs = median(rounds.map((r) => nsPerRecord(r.without)));
      const withNs = median(rounds.map((r) => nsPerRecord(r.with)));
      const syncMax = Math.max(...rounds.map((r) => r.with.syncMaxMs));
      const durationMedian = median(rounds.map((r) => r.with.durationMedianMs));
      const loads = rounds.flatMap((r) => [r.without.load, r.with.load]);
      return {
        figures: { cpuNsPerRecordWithout: withoutNs, cpuNsPerRecordWith: withNs, cpuRatio: ratio, syncMaxMs: syncMax, checkpointMedianMs: durationMedian },
        rows: [
          ['CPU per record without checkpoints (median)', withoutNs.toFixed(0), 'ns (both TaskManagers, every thread)'],
          ['CPU per record with checkpoints (median)', withNs.toFixed(0), 'ns'],
          [`without / with (median of ${options.rounds} alternated)`, ratio.toFixed(3), `${ratios.map((r) => r.toFixed(3)).join(' ')} (aim >= 0.97)`],
          ['longest sync part of a checkpoint in the windows', String(syncMax), 'ms (aim <= 10)'],
          ['checkpoint duration (median of the rounds\' medians)', String(durationMedian), 'ms'],
          ['load average (1 min) at the end of each side', loads.map((l) => l.toFixed(2)).join(' '), ''],
        ],
      };
    },
  };
}
