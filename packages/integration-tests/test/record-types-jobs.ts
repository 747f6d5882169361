/** Jobs of record-types.test.ts, as source text. */

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

function record(i: number, declared: boolean) {
  const bare = Object.create(null);
  bare.i = i;
  const holes: number[] = [i];
  holes[2] = -i;
  return {
    i,
    map: new Map<unknown, unknown>([['n', i], [{ id: i }, new Set([i, 'x'])]]),
    set: new Set([i]),
    bytes: Uint8Array.of(i % 256, 7),
    buffer: Buffer.from([1, 2]),
    when: new Date(1_700_000_000_000 + i),
    big: 2n ** 100n + BigInt(i),
    zero: -0,
    holes,
    bare,
    ...(declared ? { at: new Point(i, -1) } : {}),
  };
}

class Check extends KeyedProcessFunction<number, any, string> {
  constructor(private readonly declared: boolean) { super(); }
  processElement(r: any, _ctx: KeyedProcessContext<number>, out: Collector<string>): void {
    const wrong: string[] = [];
    const i = r.i;
    if (!(r.map instanceof Map) || r.map.get('n') !== i) wrong.push('map is ' + Object.prototype.toString.call(r.map));
    const objectKey = r.map instanceof Map ? [...r.map.keys()][1] : undefined;
    if (objectKey?.id !== i || !(r.map.get(objectKey) instanceof Set)) wrong.push('map object key or its Set value changed');
    if (!(r.set instanceof Set) || !r.set.has(i)) wrong.push('set is ' + Object.prototype.toString.call(r.set));
    if (r.bytes?.constructor !== Uint8Array) wrong.push('bytes is a ' + r.bytes?.constructor?.name);
    if (!Buffer.isBuffer(r.buffer)) wrong.push('buffer is a ' + r.buffer?.constructor?.name);
    if (!(r.when instanceof Date) || r.when.getTime() !== 1_700_000_000_000 + i) wrong.push('when is ' + String(r.when));
    if (r.big !== 2n ** 100n + BigInt(i)) wrong.push('big is ' + typeof r.big + ' ' + String(r.big));
    if (!Object.is(r.zero, -0)) wrong.push('zero is ' + (Object.is(r.zero, 0) ? '+0' : String(r.zero)));
    if (r.holes.length !== 3 || 1 in r.holes || r.holes[2] !== -i) wrong.push('holes is ' + JSON.stringify(Object.keys(r.holes)));
    if (Object.getPrototypeOf(r.bare) !== null || r.bare.i !== i) wrong.push('bare got a prototype');
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
