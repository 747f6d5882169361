import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointInfo__Output } from '@weir/rpc';
import { jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus, writeJobFile } from '@weir/integration-tests';
import type { Scenario } from '../scenario.ts';
import { median } from '../stats.ts';

const RUN_MS = 15_000;
const SLOW_MS = 0.2;

/**
 * An unthrottled source, a keyed running sum, a rebalance to a map that busy-waits SLOW_MS per
 * record (the bottleneck, so every channel before it stays full), a discarding sink.
 * Checkpoints every second. args: slow ms per record, 'unaligned' | 'aligned'.
 */
const BACKPRESSURE_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

class Sum extends KeyedProcessFunction<number, number, string> {
  private sum!: ValueState<number>;
  override open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
  }
  processElement(i: number, _ctx: KeyedProcessContext<number>, out: Collector<string>): void {
    const next = (this.sum.value() ?? 0) + i;
    this.sum.update(next);
    out.collect(i + ' ' + next);
  }
}

export default function backpressure(env: StreamExecutionEnvironment, args: string[]) {
  const slow = Number(args[0]);
  env.setParallelism(2);
  env.enableCheckpointing(1000);
  if (args[1] === 'unaligned') env.getCheckpointConfig().enableUnalignedCheckpoints();
  env.fromSource(new DataGeneratorSource((i: number) => i, Number.POSITIVE_INFINITY, RateLimiterStrategy.noOp()), 'numbers').uid('numbers')
    .keyBy((i: number) => i % 100)
    .process(new Sum()).uid('sum')
    .rebalance()
    .map((line: string) => {
      const until = performance.now() + slow;
      while (performance.now() < until);
      return line;
    }).uid('slow').name('slow')
    .sinkTo(new DiscardingSink<string>()).uid('sink');
}
`;

interface Figures {
  readonly completed: number;
  readonly medianMs: number;
  readonly maxMs: number;
  readonly medianPersistedBytes: number;
  readonly unaligned: number;
  /** The longest any checkpoint ran, in progress ones included: a lower bound when none completed. */
  readonly longestSeenMs: number;
}

/** Runs the job for RUN_MS under backpressure, cancels it, and sums up its completed checkpoints (the first one skipped: the pipeline was still filling). */
async function measure(cluster: ProcessCluster, mode: 'aligned' | 'unaligned'): Promise<Figures> {
  const submit = await cluster.weir(['run', '--detached', writeJobFile(BACKPRESSURE_JOB), '--', String(SLOW_MS), mode]);
  if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
  const jobId = jobIdFrom(submit.stdout);
  await waitForStatus(cluster.client, jobId, ['RUNNING']);
  await new Promise((r) => setTimeout(r, RUN_MS));
  const { checkpoints } = await listCheckpoints(cluster.client, jobId);
  await cluster.weir(['cancel', jobId]);
  await waitForStatus(cluster.client, jobId, ['CANCELED']);
  const completed: CheckpointInfo__Output[] = checkpoints
    .filter((c) => c.status === 'COMPLETED')
    .sort((a, b) => Number(a.checkpointId) - Number(b.checkpointId))
    .slice(1);
  return {
    completed: completed.length,
    medianMs: median(completed.map((c) => c.durationMs)),
    maxMs: Math.max(...completed.map((c) => c.durationMs)),
    medianPersistedBytes: median(completed.map((c) => Number(c.persistedBytes))),
    unaligned: completed.filter((c) => c.unaligned).length,
    longestSeenMs: Math.max(0, ...checkpoints.map((c) => c.durationMs)),
  };
}

export const backpressure: Scenario = {
  name: 'backpressure',
  description: `checkpoint duration under steady backpressure (a ${SLOW_MS} ms/record stage behind an unthrottled source), aligned vs unaligned, ${RUN_MS / 1000} s each`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'weir-bench-bp-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    try {
      const aligned = await measure(cluster, 'aligned');
      const unaligned = await measure(cluster, 'unaligned');
      // Under steady backpressure an aligned checkpoint may not complete within the run at all: its duration is then at least the longest seen.
      const alignedMs = aligned.completed === 0 ? aligned.longestSeenMs : aligned.medianMs;
      const alignedBound = aligned.completed === 0 ? '≥ ' : '';
      return {
        figures: {
          alignedMedianMs: alignedMs,
          alignedLongestSeenMs: aligned.longestSeenMs,
          alignedCompleted: aligned.completed,
          unalignedMedianMs: unaligned.medianMs,
          unalignedMaxMs: unaligned.maxMs,
          unalignedCompleted: unaligned.completed,
          unalignedCheckpointsUnaligned: unaligned.unaligned,
          speedup: alignedMs / unaligned.medianMs,
          unalignedMedianPersistedBytes: unaligned.medianPersistedBytes,
        },
        rows: [
          ['aligned: completed checkpoints', String(aligned.completed), ''],
          ['aligned: median duration', `${alignedBound}${alignedMs}`, 'ms'],
          ['aligned: longest seen (in progress included)', String(aligned.longestSeenMs), 'ms'],
          ['unaligned: completed checkpoints', `${unaligned.completed} (${unaligned.unaligned} unaligned)`, ''],
          ['unaligned: median duration', String(unaligned.medianMs), 'ms'],
          ['unaligned: longest', String(unaligned.maxMs), 'ms'],
          ['speed-up (median)', `${alignedBound}${(alignedMs / unaligned.medianMs).toFixed(1)}`, '×'],
          ['unaligned: median in-flight bytes persisted', (unaligned.medianPersistedBytes / 1e6).toFixed(2), 'MB'],
        ],
      };
    } finally {
      await cluster.stop();
    }
  },
};
