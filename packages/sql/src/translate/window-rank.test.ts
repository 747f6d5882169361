import { describe, expect, it } from 'vitest';
import { KeyedFunctionHarness, row } from '../testing/keyed-function.ts';
import { WindowRankFunction } from './window-rank.ts';

/** A window Top-2 by price (field 1) descending; rows are [item, price, window_start, window_end]. */
function windowTop2() {
  const h = new KeyedFunctionHarness();
  const fn = new WindowRankFunction([{ index: 1, desc: true }], 2, 3);
  fn.setRuntimeContext(h.runtimeContext);
  fn.open();
  return {
    h,
    add: (...fields: unknown[]) => fn.processElement(row('+I', ...fields), h.context as never, h.collector),
    watermark: (t: number) => h.watermark(t, (timer) => fn.onTimer(timer, h.context as never, h.collector)),
  };
}

describe('WindowRankFunction', () => {
  it('emits a window\'s top N once, as inserts with their row number, when the watermark passes the window\'s end', () => {
    const { h, add, watermark } = windowTop2();
    add('a', 5, 0, 10);
    add('b', 7, 0, 10);
    add('c', 6, 0, 10);
    add('d', 6, 0, 10); // equal to c: ranks after it, so outside the top 2
    expect(h.take()).toEqual([]);
    expect([...h.timers]).toEqual([9]);
    watermark(8);
    expect(h.take()).toEqual([]);
    watermark(9);
    expect(h.take()).toEqual(['+I["b",7,0,10,1]', '+I["c",6,0,10,2]']);
    // The window's state is gone: a next window of the key starts empty.
    add('e', 1, 10, 20);
    watermark(19);
    expect(h.take()).toEqual(['+I["e",1,10,20,1]']);
  });

  it('drops a row whose window has fired (late), as Flink\'s window operators do', () => {
    const { h, add, watermark } = windowTop2();
    watermark(9);
    add('late', 100, 0, 10);
    expect(h.timers.size).toBe(0);
    watermark(30);
    expect(h.take()).toEqual([]);
  });
});
