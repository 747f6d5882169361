export const SHUFFLE = (records, reuse) => `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';
type Event = { key: string; amount: number };
class Count extends KeyedProcessFunction<string, Event, number> {
  private count!: ValueState<number>;
  override open(): void { this.count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER)); }
  processElement(_e: Event, _ctx: KeyedProcessContext<string>, out: Collector<number>): void {
    const next = (this.count.value() ?? 0) + 1; this.count.update(next); out.collect(next);
  }
}
export default function shuffle(env: StreamExecutionEnvironment) {
  env.setParallelism(2);
  ${reuse ? 'env.getConfig().enableObjectReuse();' : ''}
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: 'user-' + (i % 10000), amount: i % 100 }), ${records}, RateLimiterStrategy.noOp()), 'generator').uid('generator')
    .keyBy((e: Event) => e.key).process(new Count()).uid('count').sinkTo(new DiscardingSink<number>()).uid('sink');
}`;
