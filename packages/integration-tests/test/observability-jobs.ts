import { PAUSING_SOURCE } from './pausing-source.ts';

/** A job for the metrics and REST tests, as source text written to a temp dir outside the repo. */

/**
 * `<count> <records/s> <output dir>`: a rate-limited generator emits `count` events, then
 * goes quiet without ending (so its tasks and their metrics stay); keyBy spreads them over
 * both subtasks, a running sum per key, and an exactly-once FileSink writes one line per event.
 */
export const PAUSING_SUMS = `
import { Boundedness, InputStatus, KeyedProcessFunction, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type ReaderOutput, type SourceReaderContext, type SplitEnumeratorContext, type SplitSource, type SplitSourceReader, type StreamExecutionEnvironment, type ValueState } from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder, type GeneratorSplit } from '@weir/connectors';

${PAUSING_SOURCE}

class Sum extends KeyedProcessFunction<number, number, string> {
  private sum!: ValueState<number>;
  override open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
  }
  processElement(n: number, _ctx: KeyedProcessContext<number>, out: Collector<string>): void {
    const next = (this.sum.value() ?? 0) + n;
    this.sum.update(next);
    out.collect(n + ' ' + next);
  }
}

export default function pausingSums(env: StreamExecutionEnvironment, args: string[]) {
  const [count, rate, output] = args;
  env.setParallelism(2);
  env.enableCheckpointing(300);
  env.fromSource(new PausingSource(new DataGeneratorSource((i: number) => i, Number(count), RateLimiterStrategy.perSecond(Number(rate)), Types.NUMBER)), 'events').uid('events')
    .keyBy((n: number) => n % 10)
    .process(new Sum()).uid('sum').name('sum')
    .sinkTo(FileSink.forRowFormat(output!, new SimpleStringEncoder<string>()).build()).uid('sink');
  env.execute('pausing sums');
}
`;
