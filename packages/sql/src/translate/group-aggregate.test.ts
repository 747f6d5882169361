import { describe, expect, it } from 'vitest';
import { KeyedFunctionHarness, row } from '../testing/keyed-function.ts';
import { T, withNullability } from '../validate/types.ts';
import { accumulatorOf } from './aggregates.ts';
import { GroupAggregateFunction } from './group-aggregate.ts';

describe('GroupAggregateFunction with DISTINCT aggregates', () => {
  it('counts and sums each non-null value once per key, beside a plain COUNT(*)', () => {
    const bigint = withNullability(T.BIGINT, false);
    const count = accumulatorOf({ fn: 'COUNT', distinct: false, type: bigint, name: 'c' }, undefined);
    const distinctCount = accumulatorOf({ fn: 'COUNT', arg: 1, distinct: true, type: bigint, name: 'd' }, T.BIGINT);
    const distinctSum = accumulatorOf({ fn: 'SUM', arg: 1, distinct: true, type: T.BIGINT, name: 's' }, T.BIGINT);
    const fn = new GroupAggregateFunction([0], [undefined, 1, 1], [count, distinctCount, distinctSum], undefined, [false, true, true]);
    const h = new KeyedFunctionHarness();
    fn.setRuntimeContext(h.runtimeContext);
    fn.open();
    for (const v of [7, 7, null, 8, 7]) fn.processElement(row('+I', 'a', v), h.context as never, h.collector);
    expect(h.take()).toEqual([
      '+I["a",1,1,7]',
      '-U["a",1,1,7]',
      '+U["a",2,1,7]',
      '-U["a",2,1,7]',
      '+U["a",3,1,7]',
      '-U["a",3,1,7]',
      '+U["a",4,2,15]',
      '-U["a",4,2,15]',
      '+U["a",5,2,15]',
    ]);
    // Each DISTINCT aggregate keeps the values it has seen in its own map state; NULL is never kept.
    expect([h.mapSize('distinct-1'), h.mapSize('distinct-2'), h.mapSize('distinct-0')]).toEqual([2, 2, 0]);
  });
});
