import { describe, expect, it } from 'vitest';
import type { JoinType } from '../logical/nodes.ts';
import { KeyedFunctionHarness, row, twoInputHarness } from '../testing/keyed-function.ts';
import { IntervalJoinFunction } from './interval-join.ts';
import { StreamingJoinFunction } from './join.ts';

/** A join of rows [k, v] with [k, w], keyed on k (field 0 of each side). */
function join(type: JoinType, residual?: (joined: readonly unknown[]) => unknown, insertOnly: readonly [boolean, boolean] = [false, false]) {
  const h = new KeyedFunctionHarness();
  const fn = new StreamingJoinFunction(type, [[0], [0]], 2, 2, residual, undefined, insertOnly);
  fn.setRuntimeContext(h.runtimeContext);
  fn.open();
  return {
    h,
    left: (...rows: ReturnType<typeof row>[]) => rows.forEach((r) => fn.processElement1(r, h.context as never, h.collector)),
    right: (...rows: ReturnType<typeof row>[]) => rows.forEach((r) => fn.processElement2(r, h.context as never, h.collector)),
  };
}

describe('StreamingJoinFunction', () => {
  it('LEFT JOIN: null-padded row first, retracted when the first match arrives, back when the last match goes', () => {
    const { h, left, right } = join('LEFT');
    left(row('+I', 1, 'a'));
    expect(h.take()).toEqual(['+I[1,"a",null,null]']);
    right(row('+I', 1, 'x'));
    expect(h.take()).toEqual(['-D[1,"a",null,null]', '+I[1,"a",1,"x"]']);
    right(row('+I', 1, 'y'));
    expect(h.take()).toEqual(['+I[1,"a",1,"y"]']);
    right(row('-D', 1, 'x'));
    expect(h.take()).toEqual(['-D[1,"a",1,"x"]']);
    right(row('-D', 1, 'y'));
    expect(h.take()).toEqual(['-D[1,"a",1,"y"]', '+I[1,"a",null,null]']);
    left(row('-D', 1, 'a'));
    expect(h.take()).toEqual(['-D[1,"a",null,null]']);
    expect([h.mapSize('left-records'), h.mapSize('right-records')]).toEqual([0, 0]);
  });

  it('FULL JOIN with a residual predicate: only rows that satisfy it match; duplicates count', () => {
    const { h, left, right } = join('FULL', (j) => (j[1] as number) < (j[3] as number));
    right(row('+I', 1, 5));
    expect(h.take()).toEqual(['+I[null,null,1,5]']);
    left(row('+I', 1, 7)); // 7 < 5 is false: no match, both stay padded
    expect(h.take()).toEqual(['+I[1,7,null,null]']);
    left(row('+I', 1, 3), row('+I', 1, 3));
    expect(h.take()).toEqual(['-D[null,null,1,5]', '+I[1,3,1,5]', '+I[1,3,1,5]']);
    left(row('-D', 1, 3));
    expect(h.take()).toEqual(['-D[1,3,1,5]']);
    left(row('-D', 1, 3));
    expect(h.take()).toEqual(['-D[1,3,1,5]', '+I[null,null,1,5]']);
  });

  it('INNER JOIN passes the input\'s kinds on (an updating input\'s -U/+U), and a NULL key meets nothing', () => {
    const { h, left, right } = join('INNER');
    left(row('+I', 1, 'a'));
    right(row('+I', 1, 10));
    right(row('-U', 1, 10), row('+U', 1, 11));
    expect(h.take()).toEqual(['+I[1,"a",1,10]', '-U[1,"a",1,10]', '+U[1,"a",1,11]']);
    left(row('+I', null, 'n'));
    right(row('+I', null, 1));
    expect(h.take()).toEqual([]);
    const outer = join('RIGHT');
    outer.right(row('+I', null, 1));
    expect(outer.h.take()).toEqual(['+I[null,null,null,1]']);
  });
});

describe('StreamingJoinFunction over insert-only inputs', () => {
  it('INNER JOIN keeps an insert-only side as a list of its rows: duplicates join as often as they came, the other side may retract', () => {
    const { h, left, right } = join('INNER', (j) => (j[1] as number) <= (j[3] as number), [true, false]);
    left(row('+I', 1, 3), row('+I', 1, 3), row('+I', 1, 9));
    right(row('+I', 1, 5));
    expect(h.take()).toEqual(['+I[1,3,1,5]', '+I[1,3,1,5]']);
    right(row('-U', 1, 5), row('+U', 1, 10));
    expect(h.take()).toEqual(['-U[1,3,1,5]', '-U[1,3,1,5]', '+U[1,3,1,10]', '+U[1,3,1,10]', '+U[1,9,1,10]']);
    left(row('+I', 1, 4));
    expect(h.take()).toEqual(['+I[1,4,1,10]']);
    expect([h.listSize('left-rows'), h.mapSize('left-records'), h.mapSize('right-records')]).toEqual([4, 0, 1]);
  });

  it('LEFT JOIN: the outer side keeps its match counts; the insert-only inner side is a list that still retracts the padded rows', () => {
    const { h, left, right } = join('LEFT', undefined, [true, true]);
    left(row('+I', 1, 'a'));
    expect(h.take()).toEqual(['+I[1,"a",null,null]']);
    right(row('+I', 1, 'x'), row('+I', 1, 'y'));
    expect(h.take()).toEqual(['-D[1,"a",null,null]', '+I[1,"a",1,"x"]', '+I[1,"a",1,"y"]']);
    left(row('+I', 1, 'b'));
    expect(h.take()).toEqual(['+I[1,"b",1,"x"]', '+I[1,"b",1,"y"]']);
    expect([h.mapSize('left-records'), h.listSize('right-rows')]).toEqual([2, 2]);
  });
});

describe('IntervalJoinFunction', () => {
  it('joins rows whose times are within the bounds and drops each side\'s rows once the watermark passes where they could still match', () => {
    const h = new KeyedFunctionHarness();
    // rt - 5 <= lt <= rt + 5 over rows [k, ts].
    const fn = new IntervalJoinFunction({ leftTime: 1, rightTime: 1, lower: -5, upper: 5 }, [[0], [0]], undefined);
    fn.setRuntimeContext(h.runtimeContext);
    fn.open();
    const left = (r: ReturnType<typeof row>) => fn.processElement1(r, h.context as never, h.collector);
    const right = (r: ReturnType<typeof row>) => fn.processElement2(r, h.context as never, h.collector);
    left(row('+I', 1, 10));
    right(row('+I', 1, 14));
    right(row('+I', 1, 16)); // 16 - 5 = 11 > 10
    right(row('+I', 1, 5));
    expect(h.take()).toEqual(['+I[1,10,1,14]', '+I[1,10,1,5]']);
    expect([...h.timers].sort((a, b) => a - b)).toEqual([10, 15, 19, 21]);
    h.watermark(15, (t) => fn.onTimer(t, h.context as never, h.collector));
    // The left row at 10 expired at 15 (a right row after it is at 16 or later); the right rows at 5 and 14 wait till 10 and 19.
    expect([h.mapSize('left-rows'), h.mapSize('right-rows')]).toEqual([0, 2]);
    left(row('+I', 1, 12));
    expect(h.take()).toEqual(['+I[1,12,1,14]', '+I[1,12,1,16]']);
    h.watermark(100, (t) => fn.onTimer(t, h.context as never, h.collector));
    expect([h.mapSize('left-rows'), h.mapSize('right-rows')]).toEqual([0, 0]);
  });
});

describe('IntervalJoinFunction, outer', () => {
  /** rt - 5 <= lt <= rt + 5 over rows [k, ts] on both sides. */
  function outer(joinType: 'LEFT' | 'RIGHT' | 'FULL') {
    return twoInputHarness(new IntervalJoinFunction({ leftTime: 1, rightTime: 1, lower: -5, upper: 5 }, [[0], [0]], undefined, joinType, [2, 2]));
  }

  it('pads a left row that met nothing once it can meet nothing more, and never one that met a row, also a row met later', () => {
    const { h, left, right, watermark } = outer('LEFT');
    left(1, 10);
    left(1, 30);
    right(1, 12); // meets the row at 10
    right(1, 34); // meets the row at 30, which arrived first
    expect(h.take()).toEqual(['+I[1,10,1,12]', '+I[1,30,1,34]']);
    left(1, 50);
    watermark(100);
    expect(h.take()).toEqual(['+I[1,50,null,null]']);
    expect([h.mapSize('left-rows'), h.mapSize('left-matched')]).toEqual([0, 0]);
  });

  it('pads at once an outer row that is late or has a NULL key, and drops such a row of the inner side', () => {
    const { h, left, right, watermark } = outer('LEFT');
    watermark(100);
    left(1, 20); // expired on arrival: 20 + 5 <= 100
    left(null, 200);
    right(1, 20);
    right(null, 200);
    expect(h.take()).toEqual(['+I[1,20,null,null]', '+I[null,200,null,null]']);
  });

  it('pads both sides of a FULL join, each row that met nothing once', () => {
    const { h, left, right, watermark } = outer('FULL');
    left(1, 10);
    right(1, 40);
    right(1, 12);
    expect(h.take()).toEqual(['+I[1,10,1,12]']);
    watermark(100);
    expect(h.take().sort()).toEqual(['+I[null,null,1,40]']);
    const rightOuter = outer('RIGHT');
    rightOuter.left(1, 10);
    rightOuter.right(1, 40);
    rightOuter.watermark(100);
    expect(rightOuter.h.take()).toEqual(['+I[null,null,1,40]']);
  });
});

