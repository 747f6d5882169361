import { describe, expect, it } from 'vitest';
import type { AggCall } from '../logical/nodes.ts';
import { KeyedFunctionHarness, row } from '../testing/keyed-function.ts';
import { T as Types } from '../validate/types.ts';
import { RetractGroupAggregateFunction } from './retract-aggregate.ts';

const call = (fn: AggCall['fn'], arg: number | undefined, type = Types.BIGINT): AggCall => ({ fn, ...(arg === undefined ? {} : { arg }), distinct: false, type, name: fn });

/** GROUP BY field 0 with COUNT(*), SUM, MIN, MAX and AVG of field 1 (DECIMAL(10, 2)) over one key's changelog. */
function aggregate() {
  const h = new KeyedFunctionHarness();
  const decimal = Types.decimal(10, 2);
  const fn = new RetractGroupAggregateFunction(
    [0],
    [call('COUNT', undefined), call('SUM', 1, Types.decimal(38, 2)), call('MIN', 1, decimal), call('MAX', 1, decimal), call('AVG', 1, Types.decimal(38, 6))],
    [undefined, decimal, decimal, decimal, decimal],
  );
  fn.setRuntimeContext(h.runtimeContext);
  fn.open();
  return { h, send: (kind: '+I' | '-U' | '+U' | '-D', value: bigint | null) => fn.processElement(row(kind, 'k', value), h.context as never, h.collector) };
}

const text = (lines: string[]) => lines.map((l) => l.replace(/"(-?\d+)n"/g, '$1'));

describe('RetractGroupAggregateFunction', () => {
  it('accumulates +I/+U, retracts -U/-D: MIN and MAX find the next value when theirs is retracted, the group is deleted when its last row goes', () => {
    const { h, send } = aggregate();
    send('+I', 500n);
    send('+I', 200n);
    send('+I', 200n);
    expect(text(h.take())).toEqual([
      '+I["k",1,500,500,500,5000000]',
      '-U["k",1,500,500,500,5000000]',
      '+U["k",2,700,200,500,3500000]',
      '-U["k",2,700,200,500,3500000]',
      '+U["k",3,900,200,500,3000000]',
    ]);
    // One 200 of two retracted: MIN stays 200; then the other: MIN is 500.
    send('-U', 200n);
    send('-D', 200n);
    expect(text(h.take())).toEqual([
      '-U["k",3,900,200,500,3000000]',
      '+U["k",2,700,200,500,3500000]',
      '-U["k",2,700,200,500,3500000]',
      '+U["k",1,500,500,500,5000000]',
    ]);
    // A null value counts for COUNT(*) only; retracting the max leaves SUM, MIN, MAX and AVG null.
    send('+I', null);
    send('-D', 500n);
    expect(text(h.take())).toEqual(['-U["k",1,500,500,500,5000000]', '+U["k",2,500,500,500,5000000]', '-U["k",2,500,500,500,5000000]', '+U["k",1,null,null,null,null]']);
    send('-D', null);
    expect(text(h.take())).toEqual(['-D["k",1,null,null,null,null]']);
    expect(h.mapSize('max-values-3') + h.mapSize('min-values-2')).toBe(0);
    // A retraction of a group that has no state (expired) changes nothing.
    send('-D', 100n);
    expect(h.take()).toEqual([]);
  });

  it("a group's only row updated (-U, +U) is deleted and inserted again, as Flink's GroupAggFunction does", () => {
    const { h, send } = aggregate();
    send('+I', 100n);
    send('-U', 100n);
    send('+U', 300n);
    expect(text(h.take())).toEqual(['+I["k",1,100,100,100,1000000]', '-D["k",1,100,100,100,1000000]', '+I["k",1,300,300,300,3000000]']);
  });

  it('DISTINCT over updates (no aggregates): a row goes out when its first copy comes and is deleted when its last copy goes', () => {
    const h = new KeyedFunctionHarness();
    const fn = new RetractGroupAggregateFunction([0], [], []);
    fn.setRuntimeContext(h.runtimeContext);
    fn.open();
    for (const kind of ['+I', '+U', '-D', '-U'] as const) fn.processElement(row(kind, 'a'), h.context as never, h.collector);
    expect(h.take()).toEqual(['+I["a"]', '-D["a"]']);
  });
});
