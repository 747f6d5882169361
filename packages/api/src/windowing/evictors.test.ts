import { describe, expect, it } from 'vitest';
import { environment, errorOf, testSink } from '../testing/fixtures.ts';
import { GlobalWindows } from './assigners.ts';
import { TimestampedValue, type EvictorContext } from './evictor.ts';
import { CountEvictor, DeltaEvictor, TimeEvictor } from './evictors.ts';
import { CountTrigger } from './triggers.ts';
import { GlobalWindow } from './windows.ts';

const ctx: EvictorContext = { getCurrentProcessingTime: () => 0, getCurrentWatermark: () => 0 };
const window = GlobalWindow.get();

/** [value, timestamp] pairs as a window's elements. */
const elements = (...pairs: [number, number | undefined][]) => pairs.map(([value, timestamp]) => new TimestampedValue(value, timestamp));
const values = (list: TimestampedValue<number>[]) => list.map((e) => e.getValue());

describe('evictors', () => {
  it('CountEvictor keeps the last maxCount elements, before the function by default, after it with doEvictAfter', () => {
    const list = elements([1, 1], [2, 2], [3, 3], [4, 4], [5, 5]);
    CountEvictor.of(3).evictAfter(list, list.length, window, ctx);
    expect(values(list)).toEqual([1, 2, 3, 4, 5]);
    CountEvictor.of(3).evictBefore(list, list.length, window, ctx);
    expect(values(list)).toEqual([3, 4, 5]);
    CountEvictor.of(5).evictBefore(list, list.length, window, ctx);
    expect(values(list)).toEqual([3, 4, 5]);

    const after = elements([1, 1], [2, 2], [3, 3]);
    CountEvictor.of(1, true).evictBefore(after, after.length, window, ctx);
    expect(values(after)).toEqual([1, 2, 3]);
    CountEvictor.of(1, true).evictAfter(after, after.length, window, ctx);
    expect(values(after)).toEqual([3]);
    expect(String(CountEvictor.of(1, true))).toBe('CountEvictor(1, after)');
  });

  it('TimeEvictor evicts what is at or before the newest timestamp minus the size, wherever it is in the list', () => {
    const list = elements([1, 10], [2, 25], [3, 12], [4, 20], [5, 15]);
    TimeEvictor.of(10).evictBefore(list, list.length, window, ctx);
    // Newest 25: the cutoff 15 evicts 10, 12 and 15 itself.
    expect(values(list)).toEqual([2, 4]);

    const after = elements([1, 0], [2, 100]);
    TimeEvictor.of(50, true).evictBefore(after, after.length, window, ctx);
    expect(values(after)).toEqual([1, 2]);
    TimeEvictor.of(50, true).evictAfter(after, after.length, window, ctx);
    expect(values(after)).toEqual([2]);
  });

  it('TimeEvictor leaves elements without timestamps alone, as Flink does', () => {
    const list = elements([1, undefined], [2, undefined]);
    TimeEvictor.of(0).evictBefore(list, list.length, window, ctx);
    expect(values(list)).toEqual([1, 2]);
    expect(errorOf(() => list[0]!.getTimestamp()).code).toBe('MISSING_TIMESTAMP');
  });

  it('DeltaEvictor evicts elements whose delta to the last element is at or above the threshold', () => {
    const list = elements([1, 1], [7, 2], [4, 3], [9, 4], [8, 5]);
    DeltaEvictor.of(4, (a: number, b: number) => Math.abs(a - b)).evictBefore(list, list.length, window, ctx);
    // Deltas to 8: 7, 1, 4, 1, 0.
    expect(values(list)).toEqual([7, 9, 8]);

    const after = elements([1, 1], [10, 2]);
    const evictor = DeltaEvictor.of(5, { getDelta: (a: number, b: number) => b - a }, true);
    evictor.evictBefore(after, after.length, window, ctx);
    expect(values(after)).toEqual([1, 10]);
    evictor.evictAfter(after, after.length, window, ctx);
    expect(values(after)).toEqual([10]);
  });

  it('rejects arguments out of range with INVALID_WINDOW, and a delta function that is none with INVALID_FUNCTION', () => {
    expect(errorOf(() => CountEvictor.of(-1)).code).toBe('INVALID_WINDOW');
    expect(errorOf(() => CountEvictor.of(1.5)).code).toBe('INVALID_WINDOW');
    expect(errorOf(() => TimeEvictor.of(Number.NaN)).code).toBe('INVALID_WINDOW');
    expect(errorOf(() => TimeEvictor.of(10, 'yes' as never)).code).toBe('INVALID_WINDOW');
    expect(errorOf(() => DeltaEvictor.of(Number.POSITIVE_INFINITY, () => 0)).code).toBe('INVALID_WINDOW');
    expect(errorOf(() => DeltaEvictor.of(1, {} as never)).code).toBe('INVALID_FUNCTION');
  });
});

describe('WindowedStream.evictor', () => {
  it('puts the evictor into the window spec; countWindow(size, slide) is a CountEvictor of size with a CountTrigger of slide', () => {
    const env = environment();
    const evictor = TimeEvictor.of(10);
    env.fromElements(1, 2).keyBy((n) => n % 2).window(GlobalWindows.create()).trigger(CountTrigger.of(2)).evictor(evictor).reduce((a, b) => a + b).sinkTo(testSink());
    env.fromElements(1, 2).keyBy((n) => n % 2).countWindow(5, 2).reduce((a, b) => a + b).sinkTo(testSink());
    env.fromElements(1, 2).keyBy((n) => n % 2).countWindow(5).reduce((a, b) => a + b).sinkTo(testSink());
    const windows = env.getStreamGraph().nodes.flatMap((n) => (n.spec.kind === 'window' ? [n.spec.window] : []));
    expect(windows.map((w) => [String(w.trigger), String(w.evictor)])).toEqual([
      ['CountTrigger(2)', 'TimeEvictor(10)'],
      ['CountTrigger(2)', 'CountEvictor(5)'],
      ['PurgingTrigger(CountTrigger(5))', 'undefined'],
    ]);
    expect(windows[0]!.evictor).toBe(evictor);
  });

  it('rejects what is not an Evictor with INVALID_FUNCTION, and a sliding count window of no size with INVALID_WINDOW', () => {
    const keyed = environment().fromElements(1).keyBy((n) => n);
    expect(errorOf(() => keyed.window(GlobalWindows.create()).evictor({ evictBefore: () => {} } as never)).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => keyed.countWindow(0, 1)).code).toBe('INVALID_WINDOW');
  });
});
