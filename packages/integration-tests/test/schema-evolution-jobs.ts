/**
 * Jobs for the schema evolution test (issue 5): one keyed running sum whose state type
 * changes between versions, once as a POJO (Types.POJO) and once as an Avro record
 * (Types.AVRO). A bounded, rate-limited DataGeneratorSource at parallelism 2: reader 0 emits
 * [0, n/2), reader 1 [n/2, n), in index order; keys carry their reader ('a…' or 'b…'), so
 * every key's sums are the same in every run.
 *
 * v1 keeps { sum, last } and writes `<key> <i> <sum>`.
 * v2, restored from v1's savepoint, declares { sum, tag } (tag added with default 'none',
 * last removed) and writes `v2 <key> <i> <sum> <tag> <fields>`, where <fields> are the
 * fields of the state value it read ('-' when there was none): a restored value must read
 * as 'sum+tag' with tag 'none'; keys v2 starts get tag 'new'.
 * bad declares sum with another type: its restore must fail.
 *
 * args of all: output dir, records (even), records/s, checkpoint interval ms
 */

import type { ReaderCut } from './savepoint-jobs.ts';

export interface EvolvingType {
  readonly v1: string;
  readonly v2: string;
  readonly bad: string;
}

export const POJO_TYPES: EvolvingType = {
  v1: `Types.POJO('Tally', { sum: Types.NUMBER, last: Types.NUMBER })`,
  v2: `Types.POJO('Tally', { sum: Types.NUMBER, tag: Types.withDefault(Types.STRING, 'none') })`,
  bad: `Types.POJO('Tally', { sum: Types.STRING, last: Types.NUMBER })`,
};

const avro = (fields: string): string => `Types.AVRO<Tally>({ type: 'record', name: 'Tally', fields: [${fields}] })`;

export const AVRO_TYPES: EvolvingType = {
  v1: avro(`{ name: 'sum', type: 'long' }, { name: 'last', type: 'long' }`),
  v2: avro(`{ name: 'sum', type: 'long' }, { name: 'tag', type: 'string', default: 'none' }`),
  bad: avro(`{ name: 'sum', type: 'string' }, { name: 'last', type: 'long' }`),
};

const HEADER = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type Event = { key: string; i: number };
type Tally = { sum: number; last?: number; tag?: string };

function run(env: StreamExecutionEnvironment, args: string[], fn: KeyedProcessFunction<string, Event, string>) {
  const [output, records, rate, interval] = args;
  const n = Number(records);
  env.setParallelism(2);
  env.setMaxParallelism(128);
  env.enableCheckpointing(Number(interval));
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events')
    .uid('events')
    .keyBy((e: Event) => e.key)
    .process(fn).uid('tally')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

function job(stateType: string, body: string): string {
  return `${HEADER}
class Tallies extends KeyedProcessFunction<string, Event, string> {
  private state!: ValueState<Tally>;
  override open(): void {
    this.state = this.getRuntimeContext().getState(new ValueStateDescriptor<Tally>('tally', ${stateType}));
  }
  processElement(e: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const previous = this.state.value();
${body}
  }
}

export default function tallies(env: StreamExecutionEnvironment, args: string[]) {
  run(env, args, new Tallies());
}
`;
}

const V1_BODY = `    const sum = (previous?.sum ?? 0) + e.i;
    this.state.update({ sum, last: e.i });
    out.collect(e.key + ' ' + e.i + ' ' + sum);`;

const V2_BODY = `    const fields = previous === undefined ? '-' : Object.keys(previous).sort().join('+');
    const next = { sum: (previous?.sum ?? 0) + e.i, tag: previous === undefined ? 'new' : previous.tag };
    this.state.update(next);
    out.collect('v2 ' + e.key + ' ' + e.i + ' ' + next.sum + ' ' + next.tag + ' ' + fields);`;

export function schemaJobs(types: EvolvingType): { v1: string; v2: string; bad: string } {
  return {
    v1: job(types.v1, V1_BODY),
    v2: job(types.v2, V2_BODY),
    // With the default restart strategy (exponential-delay, checkpointing is on): an
    // incompatible state fails the job at once, as no restart can fix it.
    bad: job(types.bad, V2_BODY),
  };
}


/** The exact committed output, sorted, of v1 stopped at `cut` and v2 restored from its savepoint. */
export function expectedEvolvedOutput(records: number, cut: ReaderCut): string[] {
  const sums = new Map<string, number>();
  const tags = new Map<string, string>();
  const lines: string[] = [];
  for (let i = 0; i < records; i++) {
    const reader = i < records / 2 ? 'a' : 'b';
    const position = reader === 'a' ? i : i - records / 2;
    const key = `${reader}${i % 7}`;
    const seen = sums.has(key);
    const sum = (sums.get(key) ?? 0) + i;
    sums.set(key, sum);
    if (position < cut[reader]) {
      lines.push(`${key} ${i} ${sum}`);
      tags.set(key, 'none');
    } else {
      const fields = seen ? 'sum+tag' : '-';
      const tag = tags.get(key) ?? 'new';
      tags.set(key, tag);
      lines.push(`v2 ${key} ${i} ${sum} ${tag} ${fields}`);
    }
  }
  return lines.sort();
}
