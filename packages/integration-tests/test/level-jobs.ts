/**
 * The running-sums job of checkpoint-jobs.ts on the LevelDB state backend, for the LevelDB
 * process tests: every key's records come from one source reader in index order, so the
 * committed output of a run with failures must equal the expected lines exactly.
 */

import { RUNNING_SUM } from './checkpoint-jobs.ts';

/** args: output dir, records, records/s, checkpoint interval ms (0: no checkpoints), checkpoint dir, incremental ('true' | 'false'), [sink uid] */
export const LEVEL_RUNNING_SUMS = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, CheckpointingMode, LevelStateBackend, ExternalizedCheckpointCleanup,
  type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

${RUNNING_SUM}

export default function levelRunningSums(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, checkpointDir, incremental, sinkUid] = args;
  const n = Number(records);
  env.setParallelism(2);
  if (Number(interval) > 0) env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.getCheckpointConfig().enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
  env.setStateBackend(new LevelStateBackend(checkpointDir, incremental === 'true'));
  // Reader 0 of 2 emits [0, n/2), reader 1 [n/2, n): keys carry their reader, so each key's order is fixed.
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events').uid('events')
    .keyBy((e: Event) => e.key)
    .process(new RunningSum()).uid('sums')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid(sinkUid || 'sink');
}
`;

/**
 * Checks the output of a run restored from a checkpoint taken mid-stream: every line is one the
 * uninterrupted job writes (so every running sum continued from the restored state), and each
 * source reader's indices are one gap-free run up to its last index. Returns the problems found.
 */
export function checkRestoredSuffix(lines: readonly string[], expected: ReadonlySet<string>, records: number): string[] {
  const problems: string[] = [];
  const unexpected = lines.filter((line) => !expected.has(line));
  if (unexpected.length !== 0) problems.push(`lines no uninterrupted run writes (wrong restored sums): ${unexpected.slice(0, 5).join(' | ')}`);
  for (const [start, end] of [[0, records / 2], [records / 2, records]] as const) {
    const indices = lines.map((line) => Number(line.split(' ')[1])).filter((i) => i >= start && i < end).sort((a, b) => a - b);
    const first = indices[0] ?? end;
    if (first === start) problems.push(`reader of [${start}, ${end}) started from the beginning: nothing was restored`);
    const gapFree = indices.length === end - first && indices.every((i, k) => i === first + k);
    if (!gapFree) problems.push(`reader of [${start}, ${end}) wrote ${indices.length} indices from ${first}, not each of [${first}, ${end}) once`);
  }
  return problems;
}
