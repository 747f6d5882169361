import { describe, expect, it } from 'vitest';
import type { RuntimeContext } from '@weir/api';
import type { Row } from '../row.ts';
import { T, withNullability } from '../validate/types.ts';
import { accumulatorOf } from './aggregates.ts';
import { GroupAggregateFunction } from './group-aggregate.ts';
import { CumulativeEventTimeWindows } from './window-aggregate.ts';

/** A GroupAggregateFunction with one key's state in a variable, and what it emits. */
function groupAggregate() {
  const count = accumulatorOf({ fn: 'COUNT', distinct: false, type: withNullability(T.BIGINT, false), name: 'c' }, undefined);
  const sum = accumulatorOf({ fn: 'SUM', arg: 1, distinct: false, type: T.decimal(38, 2), name: 's' }, T.decimal(10, 2));
  const avg = accumulatorOf({ fn: 'AVG', arg: 1, distinct: false, type: T.decimal(38, 6), name: 'a' }, T.decimal(10, 2));
  const fn = new GroupAggregateFunction([0], [undefined, 1, 1], [count, sum, avg]);
  let stored: unknown[] | undefined;
  const state = { value: () => stored, update: (v: unknown[]) => (stored = v), clear: () => (stored = undefined) };
  fn.setRuntimeContext({ getState: () => state } as unknown as RuntimeContext);
  fn.open();
  const out: string[] = [];
  const collector = { collect: (row: Row) => out.push(`${row.kind}${JSON.stringify(row.fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`) };
  return { process: (row: unknown[]) => fn.processElement({ kind: '+I', fields: row }, {} as never, collector as never), out };
}

describe('GroupAggregateFunction', () => {
  it('emits +I for a new key, then -U of the old result and +U of the new, nothing when unchanged', () => {
    const agg = groupAggregate();
    agg.process(['a', 1000n]); // 10.00
    agg.process(['a', 501n]); // 5.01
    agg.process(['a', null]); // COUNT(*) changes, SUM and AVG not
    expect(agg.out).toEqual([
      '+I["a",1,"1000n","10000000n"]',
      '-U["a",1,"1000n","10000000n"]',
      '+U["a",2,"1501n","7505000n"]',
      '-U["a",2,"1501n","7505000n"]',
      '+U["a",3,"1501n","7505000n"]',
    ]);
  });
});

describe('accumulators', () => {
  it('AVG of INT truncates as Flink does; MIN and MAX skip nulls; merge adds partial results', () => {
    const avg = accumulatorOf({ fn: 'AVG', arg: 0, distinct: false, type: T.INT, name: 'a' }, T.INT);
    expect(avg.result([7, 2].reduce((acc, v) => avg.add(acc, v), avg.create()))).toBe(4);
    const min = accumulatorOf({ fn: 'MIN', arg: 0, distinct: false, type: T.STRING, name: 'm' }, T.STRING);
    expect(min.result(['b', null, 'a', 'c'].reduce((acc, v) => min.add(acc, v), min.create()))).toBe('a');
    const sum = accumulatorOf({ fn: 'SUM', arg: 0, distinct: false, type: T.BIGINT, name: 's' }, T.BIGINT);
    expect(sum.result(sum.merge(sum.add(sum.create(), 2), sum.add(sum.create(), 3)))).toBe(5);
    expect(sum.result(sum.create())).toBe(null);
  });
});

describe('CumulativeEventTimeWindows', () => {
  it('assigns a row to every window of its max-size window that ends after it, as Flink\'s CUMULATE', () => {
    const windows = new CumulativeEventTimeWindows(10_000, 2_000).assignWindows(null, 13_500);
    expect(windows.map((w) => [w.start, w.end])).toEqual([
      [10_000, 14_000],
      [10_000, 16_000],
      [10_000, 18_000],
      [10_000, 20_000],
    ]);
  });
});
