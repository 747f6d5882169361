import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, listCheckpoints, ProcessCluster, writeJobFile } from '@weir/integration-tests';
import type { CheckpointInfo__Output } from '@weir/rpc';
import { timeRunningToFinished } from '../job-timing.ts';
import type { Scenario } from '../scenario.ts';
import { median } from '../stats.ts';
import { keyedCountRounds, levelCluster } from './level-count.ts';

const KEYS = 1_000_000;
const INTERVAL_MS = 2_000;
/** 1% of the keys per checkpoint interval. */
const UPDATES_PER_SECOND = KEYS / 100 / (INTERVAL_MS / 1000);
const UPDATE_SECONDS = 30;
/** The update phase's last seconds, whose checkpoints are measured: the fill is well over by then. */
const STEADY_SECONDS = 20;
/**
 * 1M keys of ~110 bytes of incompressible ValueState (>100 MB in LevelDB once written), then
 * 1% of the keys updated per checkpoint interval. One source reader (a source that finishes
 * early would end the job's checkpoints): as fast as it goes for the fill, then paced.
 * args: checkpoint dir, incremental ('true' | 'false')
 */
const STATE_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, LevelStateBackend, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

const KEYS = ${KEYS};

/** ~110 characters no compressor shrinks much, different for every (key, version). */
function payload(key: number, version: number): string {
  let h = (Math.imul(key, 2654435761) ^ Math.imul(version + 1, 40503)) >>> 0;
  let s = '';
  while (s.length < 110) {
    h = Math.imul(h ^ (h >>> 15), 2246822519) >>> 0;
    s += h.toString(36);
  }
  return s;
}

/** The first KEYS records unpaced (the fill), then ${UPDATES_PER_SECOND} records/s. */
class FillThenPace extends RateLimiterStrategy {
  createRateLimiter(parallelism: number) {
    const paced = RateLimiterStrategy.perSecond(${UPDATES_PER_SECOND}).createRateLimiter(parallelism);
    let free = KEYS / parallelism;
    return {
      tryAcquire: () => (free > 0 ? (free--, true) : paced.tryAcquire()),
      whenAvailable: () => paced.whenAvailable(),
      close: () => paced.close(),
    };
  }
}

class Keep extends KeyedProcessFunction<number, [number, number], number> {
  private value!: ValueState<string>;
  override open(): void {
    this.value = this.getRuntimeContext().getState(new ValueStateDescriptor('value', Types.STRING));
  }
  processElement(e: [number, number], _ctx: KeyedProcessContext<number>, out: Collector<number>): void {
    this.value.update(payload(e[0], e[1]));
    out.collect(e[0]);
  }
}

export default function incrementalState(env: StreamExecutionEnvironment, args: string[]) {
  const [checkpointDir, incremental] = args;
  env.setParallelism(2);
  env.enableCheckpointing(${INTERVAL_MS});
  env.setStateBackend(new LevelStateBackend(checkpointDir, incremental === 'true'));
  env.fromSource(
    new DataGeneratorSource((i: number): [number, number] => (i < KEYS ? [i, 0] : [(i * 7919 + 13) % KEYS, i]), KEYS + ${UPDATES_PER_SECOND * UPDATE_SECONDS}, new FillThenPace()),
    'events').uid('events').setParallelism(1)
    .keyBy((e: [number, number]) => e[0])
    .process(new Keep()).uid('keep')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

async function runJob(cluster: ProcessCluster, job: string, args: string[]): Promise<{ jobId: string; ms: number }> {
  const submit = await cluster.weir(['run', '--detached', writeJobFile(job), '--', ...args]);
  if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
  const jobId = jobIdFrom(submit.stdout);
  return { jobId, ms: await timeRunningToFinished(cluster.client, jobId) };
}

/**
 * Checkpoints of the update phase: completed and triggered in the job's last STEADY_SECONDS, bar
 * the final one. Not "the second half of the checkpoints": on a loaded machine the fill took
 * as many as the update phase, and its checkpoints made the medians.
 */
function steady(checkpoints: readonly CheckpointInfo__Output[]): CheckpointInfo__Output[] {
  const completed = checkpoints.filter((c) => c.status === 'COMPLETED').sort((a, b) => Number(a.checkpointId) - Number(b.checkpointId));
  const from = (completed.at(-1)?.triggerTimeMs ?? 0) - STEADY_SECONDS * 1000;
  return completed.filter((c) => c.triggerTimeMs >= from).slice(0, -1);
}

export const incremental: Scenario = {
  name: 'incremental',
  description: `LevelDB state of ${KEYS / 1e6}M keys (~110 B each), 1% updated per ${INTERVAL_MS / 1000} s checkpoint interval: full vs incremental checkpoints; keyed count on LevelDB vs heap (process cluster)`,
  async run({ profileDir }) {
    const dir = mkdtempSync(join(tmpdir(), 'weir-bench-incremental-'));
    const cluster = await levelCluster(dir, profileDir);
    try {
      const runs: Record<'full' | 'incremental', CheckpointInfo__Output[]> = { full: [], incremental: [] };
      for (const mode of ['full', 'incremental'] as const) {
        const { jobId } = await runJob(cluster, STATE_JOB, [join(dir, `checkpoints-${mode}`), String(mode === 'incremental')]);
        runs[mode] = steady((await listCheckpoints(cluster.client, jobId)).checkpoints);
        rmSync(join(dir, `checkpoints-${mode}`), { recursive: true, force: true });
      }
      const fullBytes = median(runs.full.map((c) => Number(c.stateBytes)));
      const incrementalBytes = median(runs.incremental.map((c) => Number(c.stateBytes)));
      const fullMs = median(runs.full.map((c) => c.durationMs));
      const incrementalMs = median(runs.incremental.map((c) => c.durationMs));
      const fullSyncMs = median(runs.full.map((c) => c.syncMs));
      const incrementalSyncMs = median(runs.incremental.map((c) => c.syncMs));
      const count = await keyedCountRounds(cluster, dir);
      return {
        figures: {
          fullCheckpointBytes: fullBytes,
          incrementalCheckpointBytes: incrementalBytes,
          uploadedBytesRatio: incrementalBytes / fullBytes,
          fullCheckpointMs: fullMs,
          incrementalCheckpointMs: incrementalMs,
          durationRatio: incrementalMs / fullMs,
          steadyCheckpointsFull: runs.full.length,
          steadyCheckpointsIncremental: runs.incremental.length,
          ...count.figures,
          fullSyncMs,
          incrementalSyncMs,
        },
        rows: [
          ['full checkpoint (median, update phase)', (fullBytes / 1e6).toFixed(1), `MB uploaded, ${fullMs} ms`],
          ['incremental checkpoint (median)', (incrementalBytes / 1e6).toFixed(2), `MB uploaded, ${incrementalMs} ms`],
          ['bytes incremental / full', (incrementalBytes / fullBytes).toFixed(3), ''],
          ['duration incremental / full', (incrementalMs / fullMs).toFixed(3), ''],
          ['sync part full / incremental (median)', `${fullSyncMs} / ${incrementalSyncMs}`, 'ms'],
          ...count.rows,
        ],
      };
    } finally {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
