// Exactly-once running sums, the job the demo kills a TaskManager under: a rate-limited
// DataGeneratorSource emits events 0 … count-1, keyBy groups them under 14 keys, a
// KeyedProcessFunction keeps each key's sum in ValueState and emits "<key> <index> <sum>"
// per event, and the FileSink commits part files when a checkpoint completes. Every key's
// events come from one source reader in index order, so the output is known in advance:
// whatever fails, the committed lines must be exactly `expectedRunningSums(count)`.
//
//   pnpm weir run packages/examples/jobs/running-sums.ts -- <count> <records/s> <output dir>
import {
  CheckpointingMode,
  ExternalizedCheckpointCleanup,
  KeyedProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';

interface Event {
  readonly key: string;
  readonly index: number;
}

class RunningSum extends KeyedProcessFunction<string, Event, string> {
  private sum!: ValueState<number>;

  override open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
  }

  processElement(event: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const next = (this.sum.value() ?? 0) + event.index;
    this.sum.update(next);
    out.collect(`${event.key} ${event.index} ${next}`);
  }
}

/** The key of event `index` of `count`: reader 0 of 2 emits the first half, reader 1 the second. */
export function keyOf(index: number, count: number): string {
  return `${index < count / 2 ? 'a' : 'b'}${index % 7}`;
}

export default function runningSums(env: StreamExecutionEnvironment, args: string[]): void {
  const [count, rate, output] = args;
  if (!/^\d+$/.test(count ?? '') || !/^\d+$/.test(rate ?? '') || output === undefined) {
    throw new Error('running-sums needs three arguments: <count> <records/s> <output dir>');
  }
  const n = Number(count);
  env.setParallelism(2);
  env.enableCheckpointing(500);
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.getCheckpointConfig().setMinPauseBetweenCheckpoints(100);
  env.getCheckpointConfig().setCheckpointTimeout(60_000);
  env.getCheckpointConfig().setMaxConcurrentCheckpoints(1);
  env.getCheckpointConfig().enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
  env
    .fromSource(new DataGeneratorSource((index: number): Event => ({ key: keyOf(index, n), index }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events')
    .uid('events')
    .keyBy((event) => event.key)
    .process(new RunningSum())
    .uid('running-sum')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build())
    .uid('sink');
  env.execute('running sums');
}
