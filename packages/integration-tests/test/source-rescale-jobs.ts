/**
 * A job for restores at another parallelism (issue 12 item 4): a bounded, rate-limited
 * DataGeneratorSource running at the job's parallelism, keyed running sums, a FileSink into
 * the directory the args name. The first run cuts the indexes into two ranges (splits); a
 * key carries its range, so each key's records come from one split, in index order, whichever
 * reader holds that split after a rescale, and the sums are the same in every run.
 *
 * args: output dir, records (even), records/s, checkpoint interval ms
 */
export const GENERATOR_SUMS = `
import { StreamExecutionEnvironment, ExternalizedCheckpointCleanup, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type Event = { key: string; i: number };

class RunningSum extends KeyedProcessFunction<string, Event, string> {
  private state!: ValueState<number>;
  override open(): void {
    this.state = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
  }
  processElement(e: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const sum = (this.state.value() ?? 0) + e.i;
    this.state.update(sum);
    out.collect(e.key + ' ' + e.i + ' ' + sum);
  }
}

export default function generatorSums(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval] = args;
  const n = Number(records);
  env.setMaxParallelism(128);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events')
    .uid('events')
    .keyBy((e: Event) => e.key)
    .process(new RunningSum()).uid('sums')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/** Every line the job commits over all its runs, sorted: each index once, with its key's running sum. */
export function expectedGeneratorSums(records: number): string[] {
  const sums = new Map<string, number>();
  const lines: string[] = [];
  for (let i = 0; i < records; i++) {
    const key = `${i < records / 2 ? 'a' : 'b'}${i % 7}`;
    const sum = (sums.get(key) ?? 0) + i;
    sums.set(key, sum);
    lines.push(`${key} ${i} ${sum}`);
  }
  return lines.sort();
}
