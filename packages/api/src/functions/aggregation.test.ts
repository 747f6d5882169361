import { describe, expect, it } from 'vitest';
import { buildStreamGraph } from '../graph/build-stream-graph.ts';
import { DEFAULTS, errorOf, testSource } from '../testing/fixtures.ts';
import type { StreamExecutionEnvironment } from '../environment/stream-execution-environment.ts';
import { AggregationFunction, type AggregationType, type FieldExpression } from './aggregation.ts';
import type { ReduceFunction } from './types.ts';

/** What a keyed reduce emits for one key: the first record, then each running reduction. */
function rolling(type: AggregationType, field: FieldExpression, records: unknown[], first = true): unknown[] {
  const fn = new AggregationFunction(type, field, first);
  const out: unknown[] = [];
  let acc: unknown;
  for (const record of records) {
    acc = acc === undefined ? record : fn.reduce(acc, record);
    out.push(acc);
  }
  return out;
}

describe('rolling aggregations (Flink semantics)', () => {
  const tuples = [
    ['a', 3, 'x'],
    ['a', 1, 'y'],
    ['a', 2, 'z'],
  ];

  it('sum keeps the other fields of the first record', () => {
    expect(rolling('sum', 1, tuples)).toEqual([['a', 3, 'x'], ['a', 4, 'x'], ['a', 6, 'x']]);
    expect(rolling('sum', 'n', [{ k: 'a', n: 1n, t: 1 }, { k: 'a', n: 2n, t: 2 }])).toEqual([{ k: 'a', n: 1n, t: 1 }, { k: 'a', n: 3n, t: 1 }]);
  });

  it('min and max keep the other fields of the first record; minBy and maxBy the whole record', () => {
    expect(rolling('min', 1, tuples)).toEqual([['a', 3, 'x'], ['a', 1, 'x'], ['a', 1, 'x']]);
    expect(rolling('max', 1, [...tuples, ['a', 5, 'w']]).at(-1)).toEqual(['a', 5, 'x']);
    expect(rolling('minBy', 1, tuples)).toEqual([['a', 3, 'x'], ['a', 1, 'y'], ['a', 1, 'y']]);
    expect(rolling('maxBy', 'n', [{ n: 1, id: 1 }, { n: 4, id: 2 }, { n: 2, id: 3 }]).at(-1)).toEqual({ n: 4, id: 2 });
  });

  it('minBy and maxBy keep the earlier record on a tie, the later one with first = false', () => {
    const ties = [{ n: 1, id: 1 }, { n: 1, id: 2 }];
    expect(rolling('minBy', 'n', ties).at(-1)).toEqual({ n: 1, id: 1 });
    expect(rolling('minBy', 'n', ties, false).at(-1)).toEqual({ n: 1, id: 2 });
    expect(rolling('maxBy', 'n', ties, false).at(-1)).toEqual({ n: 1, id: 2 });
  });

  it('does not change the records it was given', () => {
    const first = ['a', 1];
    rolling('sum', 1, [first, ['a', 2]]);
    expect(first).toEqual(['a', 1]);
  });

  it('refuses fields it cannot aggregate with INVALID_AGGREGATION', () => {
    expect(errorOf(() => new AggregationFunction('sum', -1)).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => rolling('sum', 'n', [{ n: 1 }, { m: 2 }])).message).toContain("sum(\"n\"): field 'n' is missing");
    expect(errorOf(() => rolling('sum', 'n', [{ n: 'a' }, { n: 'b' }])).code).toBe('INVALID_AGGREGATION');
    expect(errorOf(() => rolling('min', 0, [{ n: 1 }, { n: 2 }])).message).toContain('needs array records');
  });

  it('KeyedStream.sum/min/max/minBy/maxBy add keyed reduces named Keyed Aggregation; print() adds a sink', async () => {
    const graph = await buildStreamGraph((env: StreamExecutionEnvironment) => {
      const keyed = env.fromSource(testSource<[string, number]>(), 'in').keyBy((t) => t[0]);
      keyed.sum(1).print();
      keyed.minBy(1, false).printToErr('err');
      env.execute('aggregations');
    }, [], DEFAULTS);
    expect(graph.nodes.map((n) => [n.spec.kind, n.name])).toEqual([
      ['source', 'in'],
      ['reduce', 'Keyed Aggregation'],
      ['sink', 'Print to Std. Out'],
      ['reduce', 'Keyed Aggregation'],
      ['sink', 'Print to Std. Err'],
    ]);
    const fn = (graph.nodes[3]!.spec as { fn: ReduceFunction<unknown> }).fn as AggregationFunction;
    expect([fn.type, fn.field, fn.first]).toEqual(['minBy', 1, false]);
  });
});
