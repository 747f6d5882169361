/** Jobs of record-types.test.ts, as source text. */

import { RICH_VALUES } from './rich-values.ts';

/** Count of records each run sends through the keyBy. */
export const RECORDS = 2_000;

/**
 * Sends records holding every value MessagePack alone changes (or choked on) through a keyBy
 * at parallelism 2 on two TaskManagers, so over local and remote channels, and checks each on
 * arrival: a changed value fails the job naming it, an intact record writes "ok <i>".
 * args: 'declared' (a ROW type with a POJO field, the record then also holding a class
 * instance) | 'undeclared', 'reuse' | 'copy' (object reuse on or off), the output directory.
 */
export const TYPES_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, Types, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

class Point {
  constructor(public x: number, public y: number) {}
  norm(): number { return Math.abs(this.x) + Math.abs(this.y); }
}

${RICH_VALUES}

function record(i: number, declared: boolean) {
  return { ...rich(i), ...(declared ? { at: new Point(i, -1) } : {}) };
}

class Check extends KeyedProcessFunction<number, any, string> {
  constructor(private readonly declared: boolean) { super(); }
  processElement(r: any, _ctx: KeyedProcessContext<number>, out: Collector<string>): void {
    const i = r.i;
    const wrong = richProblems(r, i);
    if (this.declared && !(r.at instanceof Point && r.at.norm() === Math.abs(i) + 1)) wrong.push('at lost its class: ' + typeof r.at?.norm);
    if (wrong.length > 0) throw new Error('record ' + i + ' arrived changed: ' + wrong.join('; '));
    out.collect('ok ' + i);
  }
}

export default function types(env: StreamExecutionEnvironment, args: string[]) {
  const declared = args[0] === 'declared';
  env.setParallelism(2);
  if (args[1] === 'reuse') env.getConfig().enableObjectReuse();
  const records = env.fromSource(new DataGeneratorSource((i: number) => i, ${RECORDS}, RateLimiterStrategy.noOp(), Types.NUMBER), 'numbers').uid('numbers')
    .map((i: number) => record(i, declared)).uid('build').name('Build');
  if (declared) {
    records.returns(Types.ROW({
      i: Types.NUMBER, map: Types.MAP(Types.GENERIC(), Types.GENERIC()), set: Types.GENERIC(), bytes: Types.BYTES, buffer: Types.BYTES,
      when: Types.GENERIC(), big: Types.BIGINT, zero: Types.NUMBER, holes: Types.LIST(Types.NUMBER), bare: Types.GENERIC(),
      at: Types.POJO(Point, { x: Types.NUMBER, y: Types.NUMBER }),
    }) as any);
  }
  records
    .keyBy((r: { i: number }) => r.i % 16)
    .process(new Check(declared)).uid('check').name('Check')
    .sinkTo(FileSink.forRowFormat(args[2], new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/**
 * Emits a record the codec must refuse, through a keyBy at parallelism 1: args[0] 'class'
 * (an instance of class Point) or 'function'.
 */
export const REFUSED_JOB = `
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

class Point {
  constructor(public x: number, public y: number) {}
}

export default function refused(env: StreamExecutionEnvironment, args: string[]) {
  env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.noOp(), Types.NUMBER), 'numbers').uid('numbers')
    .map((i: number) => args[0] === 'class' ? { key: i, at: new Point(i, 0) } : { key: i, format: (n: number) => n.toFixed(2) }).uid('locate').name('Locate')
    .keyBy((r: { key: number }) => r.key % 2)
    .filter(() => true).uid('near').name('Near')
    .sinkTo(new DiscardingSink()).uid('sink');
}
`;
