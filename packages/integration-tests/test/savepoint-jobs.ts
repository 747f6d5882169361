/**
 * The two versions of one job for the upgrade test (issue 5). Both read a bounded,
 * rate-limited DataGeneratorSource at parallelism 2 whose reader 0 emits [0, n/2) and reader 1
 * [n/2, n), in index order; keys carry their reader ('a…' or 'b…'), so each key's records
 * arrive in one fixed order and the running sums are the same in every run.
 *
 * v1: keyed running sum in a ROW({ sum }) state, parallelism 2, lines `<key> <i> <sum>`.
 * v2, started from v1's savepoint: the state type gains `count` (restored rows get NUMBER's
 * default 0), the keyed operator runs at parallelism 3, and a new operator (uid 'tag') prefixes
 * its lines: `v2 <key> <i> <sum> <count>`. The sink keeps its uid, so both versions commit
 * into one directory.
 *
 * args of both: output dir, records (even), records/s, checkpoint interval ms, ['reuse': object
 * reuse on, env.getConfig().enableObjectReuse()]
 */

const HEADER = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type Event = { key: string; i: number };

function events(env: StreamExecutionEnvironment, n: number, rate: number) {
  return env
    .fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(rate)), 'events')
    .uid('events')
    .setParallelism(2);
}

function configure(env: StreamExecutionEnvironment, interval: number, reuse: string | undefined) {
  env.setParallelism(2);
  if (reuse === 'reuse') env.getConfig().enableObjectReuse();
  // Both versions must agree on it: key groups are what keyed state is redistributed by.
  env.setMaxParallelism(128);
  env.enableCheckpointing(interval);
}
`;

export const UPGRADE_V1 = `${HEADER}
class RunningSum extends KeyedProcessFunction<string, Event, string> {
  private state!: ValueState<{ sum: number }>;
  override open(): void {
    this.state = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.ROW({ sum: Types.NUMBER })));
  }
  processElement(e: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const sum = (this.state.value()?.sum ?? 0) + e.i;
    this.state.update({ sum });
    out.collect(e.key + ' ' + e.i + ' ' + sum);
  }
}

export default function upgradeV1(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, reuse] = args;
  configure(env, Number(interval), reuse);
  events(env, Number(records), Number(rate))
    .keyBy((e: Event) => e.key)
    .process(new RunningSum()).uid('sums')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

export const UPGRADE_V2 = `${HEADER}
class RunningSumAndCount extends KeyedProcessFunction<string, Event, string> {
  private state!: ValueState<{ sum: number; count: number }>;
  override open(): void {
    this.state = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.ROW({ sum: Types.NUMBER, count: Types.NUMBER })));
  }
  processElement(e: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    // No fallback for count: a restored row must come with the new field's default, 0.
    const previous = this.state.value();
    const next = previous === undefined ? { sum: e.i, count: 1 } : { sum: previous.sum + e.i, count: previous.count + 1 };
    this.state.update(next);
    out.collect(e.key + ' ' + e.i + ' ' + next.sum + ' ' + next.count);
  }
}

export default function upgradeV2(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, reuse] = args;
  configure(env, Number(interval), reuse);
  events(env, Number(records), Number(rate))
    .keyBy((e: Event) => e.key)
    .process(new RunningSumAndCount()).uid('sums').setParallelism(3)
    .map((line: string) => 'v2 ' + line).uid('tag').setParallelism(3)
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/** How many records each source reader had emitted when v1 stopped: its keys' lines in v1's committed output. */
export interface ReaderCut {
  readonly a: number;
  readonly b: number;
}

/** The cut v1's committed lines show: v1 lines are untagged, and a key's first letter names its reader. */
export function cutOf(committed: readonly string[]): ReaderCut {
  const v1 = committed.filter((line) => !line.startsWith('v2 '));
  return { a: v1.filter((line) => line.startsWith('a')).length, b: v1.filter((line) => line.startsWith('b')).length };
}

/**
 * The exact committed output, sorted, of v1 stopped at `cut` and v2 restored from its
 * savepoint: every index exactly once, from v1 when its reader had emitted it before the
 * savepoint, else from v2; sums run on across the upgrade; count counts v2's records per key.
 */
export function expectedUpgradeOutput(records: number, cut: ReaderCut): string[] {
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  const lines: string[] = [];
  for (let i = 0; i < records; i++) {
    const reader = i < records / 2 ? 'a' : 'b';
    const position = reader === 'a' ? i : i - records / 2;
    const key = `${reader}${i % 7}`;
    const sum = (sums.get(key) ?? 0) + i;
    sums.set(key, sum);
    if (position < cut[reader]) {
      lines.push(`${key} ${i} ${sum}`);
    } else {
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      lines.push(`v2 ${key} ${i} ${sum} ${count}`);
    }
  }
  return lines.sort();
}
