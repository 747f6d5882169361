/**
 * Jobs with a known result for the checkpoint tests. Every key's records come from one source
 * reader in index order, so the running sums, and so every output line, are the same in every
 * run: the committed output of a run with failures must equal the expected lines exactly.
 */

/** The keyed function both jobs share: a running sum per key in ValueState, one line per event. */
export const RUNNING_SUM = `type Event = { key: string; i: number };

class RunningSum extends KeyedProcessFunction<string, Event, string> {
  private sum!: ValueState<number>;
  override open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
  }
  processElement(e: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const next = (this.sum.value() ?? 0) + e.i;
    this.sum.update(next);
    out.collect(e.key + ' ' + e.i + ' ' + next);
  }
}`;

/** args: output dir, records, records/s, checkpoint interval ms, mode (EXACTLY_ONCE | AT_LEAST_ONCE), [checkpoint dir or ''], [externalized cleanup] */
export const RUNNING_SUMS = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, CheckpointingMode, FsStateBackend, ExternalizedCheckpointCleanup,
  type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

${RUNNING_SUM}
export default function runningSums(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, mode, checkpointDir, cleanup] = args;
  const n = Number(records);
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(mode === 'AT_LEAST_ONCE' ? CheckpointingMode.AT_LEAST_ONCE : CheckpointingMode.EXACTLY_ONCE);
  env.getCheckpointConfig().enableExternalizedCheckpoints(cleanup === 'DELETE_ON_CANCELLATION' ? ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION : ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
  if (checkpointDir) env.setStateBackend(new FsStateBackend(checkpointDir));
  // Reader 0 of 2 emits [0, n/2), reader 1 [n/2, n): keys carry their reader, so each key's order is fixed.
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events').uid('events')
    .keyBy((e: Event) => e.key)
    .process(new RunningSum()).uid('sums')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/**
 * Two sources at very different rates (fast: keys f*, slow: keys s*) unioned into one keyed
 * operator: its subtasks must align barriers from both.
 * args: output dir, fast records, slow records, checkpoint interval ms
 */
export const TWO_RATES = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

${RUNNING_SUM}
export default function twoRates(env: StreamExecutionEnvironment, args: string[]) {
  const [output, fast, slow, interval] = args;
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  const fastEvents = env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: 'f' + (i % 5), i }), Number(fast), RateLimiterStrategy.perSecond(3000)), 'fast').uid('fast').setParallelism(1);
  const slowEvents = env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: 's' + (i % 3), i }), Number(slow), RateLimiterStrategy.perSecond(100)), 'slow').uid('slow').setParallelism(1);
  fastEvents.union(slowEvents)
    .keyBy((e: Event) => e.key)
    .process(new RunningSum()).uid('sums')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

export function expectedTwoRates(fast: number, slow: number): string[] {
  const lines: string[] = [];
  for (const [prefix, n, keys] of [['f', fast, 5], ['s', slow, 3]] as const) {
    const sums = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const key = prefix + (i % keys);
      const next = (sums.get(key) ?? 0) + i;
      sums.set(key, next);
      lines.push(`${key} ${i} ${next}`);
    }
  }
  return lines.sort();
}
