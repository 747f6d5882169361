import { describe, expect, it } from 'vitest';
import { KeyedFunctionHarness, row } from '../testing/keyed-function.ts';
import { AppendRankFunction } from './rank.ts';

function rank(limit: number, withRowNumber: boolean, desc = true) {
  const h = new KeyedFunctionHarness();
  const fn = new AppendRankFunction([{ index: 1, desc }], limit, withRowNumber);
  fn.setRuntimeContext(h.runtimeContext);
  fn.open();
  return { h, add: (...fields: unknown[]) => fn.processElement(row('+I', ...fields), h.context as never, h.collector) };
}

describe('AppendRankFunction', () => {
  it('Top-2 with the row number: every rank whose row changed is updated (-U/+U), a new rank inserted', () => {
    const { h, add } = rank(2, true);
    add('a', 5);
    expect(h.take()).toEqual(['+I["a",5,1]']);
    add('b', 7);
    expect(h.take()).toEqual(['-U["a",5,1]', '+U["b",7,1]', '+I["a",5,2]']);
    add('c', 6);
    expect(h.take()).toEqual(['-U["a",5,2]', '+U["c",6,2]']);
    add('d', 1);
    add('e', 6); // equal to c: ranks after it, so outside the top 2
    expect(h.take()).toEqual([]);
  });

  it('Top-2 without the row number: only the row that enters (+I) and the one it pushes out (-D)', () => {
    const { h, add } = rank(2, false);
    add('a', 5);
    add('b', 7);
    expect(h.take()).toEqual(['+I["a",5,1]', '+I["b",7,1]']);
    add('c', 6);
    expect(h.take()).toEqual(['-D["a",5,2]', '+I["c",6,2]']);
  });

  it('deduplication (N = 1, ascending time) keeps the first row: a later one changes nothing, an earlier late one replaces it', () => {
    const { h, add } = rank(1, false, false);
    add('x', 100);
    add('y', 200);
    expect(h.take()).toEqual(['+I["x",100,1]']);
    add('z', 50);
    expect(h.take()).toEqual(['-D["x",100,1]', '+I["z",50,1]']);
  });
});
