import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '@weir/api';
import { StreamTableEnvironment } from '../table-environment.ts';
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

describe('DISTINCT aggregates where Weir runs them not', () => {
  it('refuses one in a window aggregation and over an updating input, at its position', () => {
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    tEnv.executeSql("CREATE TABLE b (id BIGINT, k INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')");
    expect(() => tEnv.sqlQuery("SELECT window_start, COUNT(DISTINCT k) AS c FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end")).toThrow(
      "SQL error at line 1, column 22: COUNT(DISTINCT ..) in a window aggregation is not supported by Weir's SQL yet",
    );
    expect(() => tEnv.sqlQuery('SELECT c, COUNT(DISTINCT k) AS n FROM (SELECT k, COUNT(*) AS c FROM b GROUP BY k) GROUP BY c')).toThrow(
      "SQL error at line 1, column 11: COUNT(DISTINCT ..) over an updating input is not supported by Weir's SQL yet",
    );
  });
});
