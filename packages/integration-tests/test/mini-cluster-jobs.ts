// A job for mini-cluster.test.ts: generated numbers 0..count-1 at a bounded rate, through keyed
// state, into a CollectSink, checkpointing every 200 ms (or every args[2] ms) and restarting after a failure.
import { RestartStrategies, type StreamExecutionEnvironment, Types, ValueStateDescriptor, RichMapFunction, type ValueState } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy } from '@weir/connectors';
import { CollectSink } from '@weir/testing/job';

/** Counts per key in keyed state, so a restore that lost or repeated state would show in the output. */
class Numbered extends RichMapFunction<number, string> {
  #seen!: ValueState<number>;

  override open(): void {
    this.#seen = this.getRuntimeContext().getState(new ValueStateDescriptor('seen', Types.NUMBER, 0));
  }

  map(n: number): string {
    const seen = (this.#seen.value() ?? 0) + 1;
    this.#seen.update(seen);
    return `${n % 4}:${seen}`;
  }
}

export default function numbers(env: StreamExecutionEnvironment, args: string[]): void {
  const [count, perSecond, intervalMs] = args.map(Number);
  env.enableCheckpointing(intervalMs ?? 200);
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(5, 500));
  env
    .fromSource(new DataGeneratorSource((i) => i, count!, RateLimiterStrategy.perSecond(perSecond!), Types.NUMBER), 'numbers')
    .uid('numbers')
    .keyBy((n) => n % 4)
    .map(new Numbered())
    .uid('numbered')
    .sinkTo(new CollectSink('numbered'))
    .uid('collect');
  env.execute('mini-cluster numbers');
}
