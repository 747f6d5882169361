/**
 * The broadcast state job of broadcast-state.test.ts (issue 26 item 4): a keyed event stream
 * and a rules stream broadcast to it, with an output that does not depend on how the two
 * streams interleave, so it can be checked exactly through kills and a rescale.
 *
 * Events i = 0 … n-1 belong to epoch ⌊i / EPOCH⌋; rule e (one per epoch, from a source of its
 * own at parallelism 1) says the factor of epoch e. An event
 * whose rule is in the broadcast state is emitted at once as `key i i*factor runningSum`; one
 * whose rule has not come yet waits in keyed list state, and the rule's arrival releases the
 * waiting events of every key through applyToKeyedState. Rules arrive in epoch order, and each
 * key's events come from one generator split in index order (the key names its half of the
 * indexes), so each key's running sum is the same however the streams interleave.
 *
 * args: output dir, events, events/s, rules/s, checkpoint interval ms
 */
export const EPOCH = 250;

export function ruleFactor(epoch: number): number {
  return (epoch % 5) + 2;
}

export const BROADCAST_RULES = `
import {
  StreamExecutionEnvironment, KeyedBroadcastProcessFunction, MapStateDescriptor, ValueStateDescriptor, ListStateDescriptor, Types,
  ExternalizedCheckpointCleanup, type ValueState, type ListState, type Collector, type KeyedReadOnlyBroadcastContext, type KeyedBroadcastContext,
} from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type Event = { key: string; i: number };
type Rule = { epoch: number; factor: number };

const RULES = new MapStateDescriptor<number, number>('rules', Types.NUMBER, Types.NUMBER);
const PENDING = new ListStateDescriptor<Event>('pending', Types.GENERIC<Event>());
const SUM = new ValueStateDescriptor<number>('sum', Types.NUMBER);

class ApplyRules extends KeyedBroadcastProcessFunction<string, Event, Rule, string> {
  private sum!: ValueState<number>;
  private pending!: ListState<Event>;
  override open(): void {
    this.sum = this.getRuntimeContext().getState(SUM);
    this.pending = this.getRuntimeContext().getListState(PENDING);
  }
  processElement(e: Event, ctx: KeyedReadOnlyBroadcastContext<string>, out: Collector<string>): void {
    const factor = ctx.getBroadcastState(RULES).get(Math.floor(e.i / ${EPOCH}));
    if (factor === undefined || [...this.pending.get()].length > 0) this.pending.add(e);
    else this.emit(e, factor, out);
  }
  processBroadcastElement(rule: Rule, ctx: KeyedBroadcastContext<string>, out: Collector<string>): void {
    const rules = ctx.getBroadcastState(RULES);
    rules.put(rule.epoch, rule.factor);
    ctx.applyToKeyedState(PENDING, (_key, pending) => {
      const waiting = [...pending.get()];
      let released = 0;
      for (const e of waiting) {
        const factor = rules.get(Math.floor(e.i / ${EPOCH}));
        if (factor === undefined) break;
        this.emit(e, factor, out);
        released++;
      }
      if (released === waiting.length) pending.clear();
      else pending.update(waiting.slice(released));
    });
  }
  private emit(e: Event, factor: number, out: Collector<string>): void {
    const sum = (this.sum.value() ?? 0) + e.i * factor;
    this.sum.update(sum);
    out.collect(e.key + ' ' + e.i + ' ' + e.i * factor + ' ' + sum);
  }
}

export default function broadcastRules(env: StreamExecutionEnvironment, args: string[]) {
  const [output, events, eventRate, ruleRate, interval] = args;
  const n = Number(events);
  env.setMaxParallelism(128);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
  const rules = env
    .fromSource(new DataGeneratorSource((e: number): Rule => ({ epoch: e, factor: (e % 5) + 2 }), Math.ceil(n / ${EPOCH}), RateLimiterStrategy.perSecond(Number(ruleRate))), 'rules')
    .uid('rules').setParallelism(1)
    .broadcast(RULES);
  env
    .fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 13), i }), n, RateLimiterStrategy.perSecond(Number(eventRate))), 'events')
    .uid('events')
    .keyBy((e: Event) => e.key)
    .connect(rules)
    .process(new ApplyRules()).uid('apply-rules')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/** Every line the job commits, sorted: each event once, with its epoch's factor and its key's running sum. */
export function expectedBroadcastRules(events: number): string[] {
  const sums = new Map<string, number>();
  const lines: string[] = [];
  for (let i = 0; i < events; i++) {
    const key = `${i < events / 2 ? 'a' : 'b'}${i % 13}`;
    const value = i * ruleFactor(Math.floor(i / EPOCH));
    const sum = (sums.get(key) ?? 0) + value;
    sums.set(key, sum);
    lines.push(`${key} ${i} ${value} ${sum}`);
  }
  return lines.sort();
}

/** Bad input: a KeyedBroadcastProcessFunction that asks for its broadcast state's descriptor as keyed state. args: output dir */
export const BROADCAST_AS_KEYED = `
import { StreamExecutionEnvironment, KeyedBroadcastProcessFunction, MapStateDescriptor, Types, RestartStrategies } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

const RULES = new MapStateDescriptor<number, number>('rules', Types.NUMBER, Types.NUMBER);

class Misused extends KeyedBroadcastProcessFunction<number, number, number, string> {
  override open(): void {
    this.getRuntimeContext().getMapState(RULES);
  }
  processElement(): void {}
  processBroadcastElement(): void {}
}

export default function misused(env: StreamExecutionEnvironment, args: string[]) {
  env.setParallelism(1);
  env.setRestartStrategy(RestartStrategies.noRestart());
  const rules = env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.noOp()), 'rules').broadcast(RULES);
  env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.noOp()), 'events')
    .keyBy((i: number) => i)
    .connect(rules)
    .process(new Misused())
    .sinkTo(FileSink.forRowFormat(args[0]!, new SimpleStringEncoder<string>()).build());
}
`;
