import { describe, expect, it } from 'vitest';
import type { JoinType } from '../logical/nodes.ts';
import { twoInputHarness } from '../testing/keyed-function.ts';
import { WindowJoinFunction } from './window-join.ts';

/** Rows [k, v, window_end] on both sides, joined on k (and the window), residual `left v < right v` when asked. */
function windowJoin(joinType: JoinType, residual?: (joined: readonly unknown[]) => unknown) {
  return twoInputHarness(new WindowJoinFunction(joinType, [[0, 2], [0, 2]], [3, 3], [2, 2], residual));
}

describe('WindowJoinFunction', () => {
  it('joins a window\'s rows of both sides once, when the watermark passes the window\'s end, and forgets them', () => {
    const { h, left, right, watermark } = windowJoin('INNER');
    left(1, 'a', 10_000);
    right(1, 'x', 10_000);
    right(1, 'y', 10_000);
    expect(h.take()).toEqual([]);
    expect([...h.timers]).toEqual([9_999]);
    watermark(9_998);
    expect(h.take()).toEqual([]);
    watermark(9_999);
    expect(h.take()).toEqual(['+I[1,"a",10000,1,"x",10000]', '+I[1,"a",10000,1,"y",10000]']);
    // Late: the window fired already.
    left(1, 'b', 10_000);
    right(1, 'z', 10_000);
    watermark(20_000);
    expect(h.take()).toEqual([]);
  });

  it('pads the rows of an outer side that met nothing with nulls, once, when the window fires', () => {
    const full = windowJoin('FULL', (joined) => (joined[1] as string) < (joined[4] as string));
    full.left(1, 'b', 10_000);
    full.left(1, 'm', 10_000);
    full.right(1, 'a', 10_000);
    full.right(1, 'c', 10_000);
    full.watermark(10_000);
    expect(full.h.take()).toEqual(['+I[1,"b",10000,1,"c",10000]', '+I[1,"m",10000,null,null,null]', '+I[null,null,null,1,"a",10000]']);
    const leftOuter = windowJoin('LEFT', (joined) => (joined[1] as string) < (joined[4] as string));
    leftOuter.left(1, 'b', 10_000);
    leftOuter.right(1, 'a', 10_000);
    leftOuter.watermark(10_000);
    expect(leftOuter.h.take()).toEqual(['+I[1,"b",10000,null,null,null]']);
    const rightOuter = windowJoin('RIGHT');
    rightOuter.right(1, 'a', 10_000);
    rightOuter.watermark(10_000);
    expect(rightOuter.h.take()).toEqual(['+I[null,null,null,1,"a",10000]']);
  });

  it('matches no row on a NULL key (SQL\'s =), but keeps it for an outer join', () => {
    const { h, left, right, watermark } = windowJoin('LEFT');
    left(null, 'a', 10_000);
    right(null, 'x', 10_000);
    watermark(10_000);
    expect(h.take()).toEqual(['+I[null,"a",10000,null,null,null]']);
  });
});
