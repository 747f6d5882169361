import { describe, expect, it } from 'vitest';
import { T } from '../validate/types.ts';
import { KeyedFunctionHarness, row } from '../testing/keyed-function.ts';
import { accumulatorOf } from './aggregates.ts';
import { OverAggregateFunction } from './over-aggregate.ts';

/** SUM(v) and COUNT(*) OVER rows [ts, v], ordered by ts. */
function over(rows: boolean, preceding: number | undefined) {
  const h = new KeyedFunctionHarness();
  const sum = accumulatorOf({ fn: 'SUM', arg: 1, distinct: false, type: T.INT, name: 's' }, T.INT);
  const count = accumulatorOf({ fn: 'COUNT', distinct: false, type: T.BIGINT, name: 'c' }, undefined);
  const fn = new OverAggregateFunction(0, rows, preceding, [1, undefined], [sum, count]);
  fn.setRuntimeContext(h.runtimeContext);
  fn.open();
  return {
    h,
    add: (ts: number, v: number) => fn.processElement(row('+I', ts, v), h.context as never, h.collector),
    watermark: (t: number) => h.watermark(t, (timer) => fn.onTimer(timer, h.context as never, h.collector)),
  };
}

describe('OverAggregateFunction', () => {
  it('ROWS BETWEEN 1 PRECEDING: rows go out in time order when the watermark passes them, each with itself and the row before', () => {
    const { h, add, watermark } = over(true, 1);
    add(20, 2);
    add(10, 1);
    add(20, 3);
    expect(h.take()).toEqual([]);
    watermark(20);
    expect(h.take()).toEqual(['+I[10,1,1,1]', '+I[20,2,3,2]', '+I[20,3,5,2]']);
    add(15, 9); // late: behind the watermark
    add(30, 4);
    watermark(40);
    expect(h.take()).toEqual(['+I[30,4,7,2]']);
  });

  it('RANGE BETWEEN 10 PRECEDING: rows of the last 10 ms, peers of one time with the same result', () => {
    const { h, add, watermark } = over(false, 10);
    add(0, 1);
    add(5, 2);
    add(5, 4);
    add(16, 8);
    watermark(100);
    expect(h.take()).toEqual(['+I[0,1,1,1]', '+I[5,2,7,3]', '+I[5,4,7,3]', '+I[16,8,8,1]']);
  });

  it('unbounded RANGE: a running total, peers together', () => {
    const { h, add, watermark } = over(false, undefined);
    add(1, 1);
    add(2, 2);
    add(2, 3);
    watermark(2);
    expect(h.take()).toEqual(['+I[1,1,1,1]', '+I[2,2,6,3]', '+I[2,3,6,3]']);
  });
});
