import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommittedLines } from '@weir/examples';
import { getJob, jobIdFrom, listCheckpoints, logLines, ProcessCluster, until, writeJobFile } from '@weir/integration-tests';
import type { CheckpointInfo__Output } from '@weir/rpc';
import type { Scenario } from '../scenario.ts';
import { median } from '../stats.ts';

/** The issue's sizes; `--keys 200000,1000000` runs others (the machine may be too busy for 15M). */
export const DEFAULT_KEYS = [1_000_000, 5_000_000, 15_000_000];
const INTERVAL_MS = 5_000;
/** After the fill, updates run this long before the kill: long enough for compactions after the fill to settle. */
const SETTLE_SECONDS = 30;
/** Checkpoints measured: the last ones completed before the kill. */
const MEASURED = 4;

/**
 * args: output, checkpoint dir, incremental ('true' | 'false'), keys, marker file. KEYS records unpaced (the
 * fill), then 1% of the keys per 5 s interval, for as long as the bench lets it run. Each update
 * writes a line `<key> <time it was processed>` to a FileSink, committed by checkpoints: the first
 * line's time is the end of the fill, and the first line committed after the kill is the first
 * output after the restore.
 */
const STATE_JOB = `
import { StreamExecutionEnvironment, RestartStrategies, KeyedProcessFunction, ValueStateDescriptor, Types, LevelStateBackend, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';
import { existsSync } from 'node:fs';

/** 100 characters no compressor shrinks much, different for every (key, version). */
function payload(key: number, version: number): string {
  let h = (Math.imul(key, 2654435761) ^ Math.imul(version + 1, 40503)) >>> 0;
  let s = '';
  while (s.length < 100) {
    h = Math.imul(h ^ (h >>> 15), 2246822519) >>> 0;
    s += h.toString(36);
  }
  return s.slice(0, 100);
}

/** Unpaced for the fill, then paced; a source restored after the fill (the marker file exists) is paced from the start. */
class FillThenPace extends RateLimiterStrategy {
  constructor(private readonly keys: number, private readonly filledMarker: string) {
    super();
  }
  createRateLimiter(parallelism: number) {
    const paced = RateLimiterStrategy.perSecond(this.keys / 100 / ${INTERVAL_MS / 1000}).createRateLimiter(parallelism);
    let free = existsSync(this.filledMarker) ? 0 : this.keys / parallelism;
    return {
      tryAcquire: () => (free > 0 ? (free--, true) : paced.tryAcquire()),
      whenAvailable: () => paced.whenAvailable(),
      close: () => paced.close(),
    };
  }
}

class Keep extends KeyedProcessFunction<number, [number, number], string> {
  private value!: ValueState<string>;
  constructor(private readonly keys: number) {
    super();
  }
  override open(): void {
    this.value = this.getRuntimeContext().getState(new ValueStateDescriptor('value', Types.STRING));
  }
  processElement(e: [number, number], _ctx: KeyedProcessContext<number>, out: Collector<string>): void {
    this.value.update(payload(e[0], e[1]));
    if (e[1] >= this.keys) out.collect(e[0] + ' ' + Date.now());
  }
}

export default function stateScaling(env: StreamExecutionEnvironment, args: string[]) {
  const [output, checkpointDir, incremental, keysArg, filledMarker] = args;
  const keys = Number(keysArg);
  env.setParallelism(2);
  env.enableCheckpointing(${INTERVAL_MS});
  // Restarts at once: kill → RUNNING is the detection and the restore, no delay on top.
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 0));
  env.setStateBackend(new LevelStateBackend(checkpointDir, incremental === 'true'));
  env.fromSource(
    new DataGeneratorSource((i: number): [number, number] => (i < keys ? [i, 0] : [(i * 7919 + 13) % keys, i]), Number.MAX_SAFE_INTEGER, new FillThenPace(keys, filledMarker)),
    'events').uid('events').setParallelism(1)
    .keyBy((e: [number, number]) => e[0])
    .process(new Keep(keys)).uid('keep')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

interface RunFigures {
  readonly fillRecordsPerSecond: number;
  readonly fullBytes: number;
  readonly checkpointedBytes: number;
  readonly checkpointMs: number;
  readonly syncMs: number;
  readonly killToRunningMs: number;
  readonly killToRestoredMs: number;
  readonly killToFirstOutputMs: number;
  /** Restarts before the kill (lost heartbeats on a loaded machine, failed checkpoints). */
  readonly restartsBeforeKill: number;
  /** The JobManager's RUNNING came no earlier than the last subtask's "state restored". */
  readonly runningAfterRestore: boolean;
  /** Why the job restarted before the kill, if it did. */
  readonly restartCauses: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The first line's processing time: when the first update, so the end of the fill, went through. */
function firstLineTime(output: string): number | undefined {
  const times = readCommittedLines(output).map((line) => Number(line.split(' ')[1]));
  return times.length === 0 ? undefined : Math.min(...times);
}

/** full: full checkpoints; incremental: shared table files; changelog: incremental with state.backend.changelog.enabled. */
export type StateScalingMode = 'full' | 'incremental' | 'changelog';
export const STATE_SCALING_MODES: readonly StateScalingMode[] = ['full', 'incremental', 'changelog'];

export interface StateScalingOptions {
  readonly keys: readonly number[];
  readonly modes: readonly StateScalingMode[];
  /** Cluster configuration on top (LevelDB options, the materialization interval): `key=value` pairs. */
  readonly config: Readonly<Record<string, string>>;
  /** Configuration of variant B (`--config B:key=value`): each mode then runs as A (`config`) and B (`config` and these), alternating. */
  readonly configB: Readonly<Record<string, string>>;
  /** Runs of each (keys, mode, variant), alternating: ratios between them come from the same stretch of load. */
  readonly repeat: number;
}

async function runOnce(dir: string, keys: number, mode: StateScalingMode, config: Readonly<Record<string, string>>): Promise<RunFigures> {
  const incremental = mode !== 'full';
  const cluster = await ProcessCluster.start({
    taskManagers: 3,
    slots: 1,
    config: { 'state.backend.rocksdb.localdir': join(dir, 'local'), ...(mode === 'changelog' ? { 'state.backend.changelog.enabled': 'true' } : {}), ...config },
  });
  const output = join(dir, `out-${keys}-${mode}`);
  const checkpoints = join(dir, `checkpoints-${keys}-${mode}`);
  try {
    const filled = join(dir, `filled-${keys}-${mode}`);
    const submit = await cluster.weir(['run', '--detached', writeJobFile(STATE_JOB), '--', output, checkpoints, String(incremental), String(keys), filled]);
    if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
    const jobId = jobIdFrom(submit.stdout);
    await until(() => getJob(cluster.client, jobId), (d) => d.summary!.status === 'RUNNING', 120_000, 'the job running');
    const runningAt = Date.now();
    const fillEnd = await until(async () => firstLineTime(output), (t) => t !== undefined, 3_600_000, 'the end of the fill');
    // The restored source must not fill again: its rate limiter starts paced.
    writeFileSync(filled, '');
    await sleep(SETTLE_SECONDS * 1000);
    const before = (await listCheckpoints(cluster.client, jobId)).checkpoints;
    const measured = completedBefore(before, Date.now()).slice(-MEASURED);
    const committedBefore = readCommittedLines(output).length;
    const victim = cluster.liveTaskManagers.find((tm) => logLines(tm.output).some((l) => l.msg === 'state restored' || l.msg === 'deploying task'))!;
    // On a loaded machine the job may have restarted before the kill (a lost heartbeat): only the kill's restart counts.
    const detailsBefore = await getJob(cluster.client, jobId);
    const attemptBefore = detailsBefore.attempt;
    const restartCauses = detailsBefore.failovers.map((f) => `${f.code}: ${f.cause.slice(0, 300)}`).join(' | ');
    const killedAt = Date.now();
    await cluster.killTaskManager(victim);
    const running = await until(() => getJob(cluster.client, jobId), (d) => d.attempt > attemptBefore && d.summary!.status === 'RUNNING', 600_000, 'the job running again');
    const runningAgainAt = Date.now();
    await until(async () => readCommittedLines(output).length, (n) => n > committedBefore, 600_000, 'output committed after the restore');
    const firstOutputAt = Date.now();
    const restoredAt = Math.max(...cluster.taskManagers.flatMap((tm) => logLines(tm.output)).filter((l) => l.msg === 'state restored' && l.fields.attempt === running.attempt).map((l) => l.at));
    const runningLogged = logLines(cluster.jobManager.output).find((l) => l.msg === 'job status changed' && l.fields.to === 'RUNNING' && l.fields.attempt === running.attempt);
    await cluster.weir(['cancel', jobId]);
    return {
      fillRecordsPerSecond: keys / ((fillEnd! - runningAt) / 1000),
      fullBytes: median(measured.map((c) => Number(c.stateBytes))),
      checkpointedBytes: median(measured.map((c) => Number(c.checkpointedBytes))),
      checkpointMs: median(measured.map((c) => c.durationMs)),
      syncMs: Math.max(...measured.map((c) => c.syncMs)),
      killToRunningMs: runningAgainAt - killedAt,
      killToRestoredMs: restoredAt - killedAt,
      killToFirstOutputMs: firstOutputAt - killedAt,
      restartsBeforeKill: attemptBefore,
      runningAfterRestore: runningLogged !== undefined && runningLogged.at >= restoredAt,
      restartCauses,
    };
  } finally {
    await cluster.stop();
    rmSync(output, { recursive: true, force: true });
    rmSync(checkpoints, { recursive: true, force: true });
  }
}

function completedBefore(checkpoints: readonly CheckpointInfo__Output[], at: number): CheckpointInfo__Output[] {
  return checkpoints.filter((c) => c.status === 'COMPLETED' && c.triggerTimeMs + c.durationMs <= at).sort((a, b) => Number(a.checkpointId) - Number(b.checkpointId));
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

/** The 1-minute load average after a run: other processes share the machine. */
function loadAverage(): string {
  return loadavg()[0]!.toFixed(1);
}

export function stateScaling(options: StateScalingOptions): Scenario {
  const { keys: keySizes, modes, config, configB, repeat } = options;
  const text = (c: Readonly<Record<string, string>>) => Object.entries(c).map(([k, v]) => `${k}=${v}`).join(' ');
  const configText = text(config) + (Object.keys(configB).length === 0 ? '' : `; B: ${text(configB)}`);
  const variants: [string, Readonly<Record<string, string>>][] = Object.keys(configB).length === 0 ? [['', config]] : [[' A', config], [' B', { ...config, ...configB }]];
  const runs = modes.flatMap((mode) => variants.map(([variant, c]) => ({ mode, variant, config: c })));
  return {
    name: 'state-scaling',
    description: `LevelDB keyed state of ${keySizes.map((k) => `${k / 1e6}M`).join(', ')} keys (100 B incompressible values), 1% updated per ${INTERVAL_MS / 1000} s interval, ${modes.join(' / ')}${configText === '' ? '' : ` (${configText})`}, a TaskManager SIGKILLed at full size (p=2 on 3 TaskManagers)`,
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'weir-bench-state-scaling-'));
      const figures: Record<string, number> = {};
      const rows: [string, string, string][] = [];
      try {
        for (const keys of keySizes) {
          for (let round = 0; round < repeat * runs.length; round++) {
            const { mode, variant, config: runConfig } = runs[round % runs.length]!;
            const run = await runOnce(dir, keys, mode, runConfig);
            const label = `${keys / 1e6}M ${mode}${variant}${repeat === 1 ? '' : ` #${Math.floor(round / runs.length) + 1}`} (load ${loadAverage()})`;
            if (run.restartCauses !== '') rows.push([`${label}: restarts before the kill`, run.restartCauses, '']);
            for (const [name, value] of Object.entries(run)) if (typeof value !== 'string') figures[`${keys}.${mode}${variant.trim()}.${Math.floor(round / runs.length)}.${name}`] = Number(value);
            rows.push([`${label}: fill`, Math.round(run.fillRecordsPerSecond).toLocaleString('en-US'), 'records/s']);
            rows.push([`${label}: checkpoint full / checkpointed`, `${mb(run.fullBytes)} / ${mb(run.checkpointedBytes)}`, `MB, ${run.checkpointMs} ms (sync ≤ ${run.syncMs} ms)`]);
            rows.push([`${label}: kill → RUNNING / restored / first output`, `${run.killToRunningMs} / ${run.killToRestoredMs} / ${run.killToFirstOutputMs}`, `ms (RUNNING after restore: ${run.runningAfterRestore ? 'yes' : 'NO'}; restarts before the kill: ${run.restartsBeforeKill})`]);
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return { figures, rows };
    },
  };
}
