import { describe, expect, it } from 'vitest';
import { errorOf } from '../testing/fixtures.ts';
import {
  EventTimeSessionWindows,
  GlobalWindows,
  ProcessingTimeSessionWindows,
  SlidingEventTimeWindows,
  SlidingProcessingTimeWindows,
  TumblingEventTimeWindows,
  TumblingProcessingTimeWindows,
} from './assigners.ts';
import { EventTimeTrigger, NeverTrigger, ProcessingTimeTrigger } from './triggers.ts';
import { GlobalWindow, TimeWindow } from './windows.ts';

const at = (now: number) => ({ getCurrentProcessingTime: () => now });
const bounds = (windows: TimeWindow[]) => windows.map((w) => [w.start, w.end]);

describe('window assigners', () => {
  it('tumbling: [start, start + size) aligned to the epoch, negative timestamps included', () => {
    const tumbling = TumblingEventTimeWindows.of(10);
    expect(bounds(tumbling.assignWindows(null, 0))).toEqual([[0, 10]]);
    expect(bounds(tumbling.assignWindows(null, 9))).toEqual([[0, 10]]);
    expect(bounds(tumbling.assignWindows(null, 10))).toEqual([[10, 20]]);
    expect(bounds(tumbling.assignWindows(null, -1))).toEqual([[-10, 0]]);
    expect(bounds(tumbling.assignWindows(null, -10))).toEqual([[-10, 0]]);
    expect(bounds(tumbling.assignWindows(null, -11))).toEqual([[-20, -10]]);
    expect(tumbling.isEventTime()).toBe(true);
    expect(tumbling.getDefaultTrigger()).toBeInstanceOf(EventTimeTrigger);
  });

  it('tumbling with an offset, positive or negative (days in another time zone)', () => {
    expect(bounds(TumblingEventTimeWindows.of(10, 3).assignWindows(null, 2))).toEqual([[-7, 3]]);
    expect(bounds(TumblingEventTimeWindows.of(10, 3).assignWindows(null, 3))).toEqual([[3, 13]]);
    expect(bounds(TumblingEventTimeWindows.of(10, -3).assignWindows(null, 7))).toEqual([[7, 17]]);
    expect(bounds(TumblingEventTimeWindows.of(10, -3).assignWindows(null, 6))).toEqual([[-3, 7]]);
    const day = 86_400_000;
    const hour = 3_600_000;
    // 2021-01-01T00:00 at UTC+8 is 2020-12-31T16:00Z: the day window starts there.
    const ts = Date.UTC(2021, 0, 1, 3);
    expect(bounds(TumblingEventTimeWindows.of(day, -8 * hour).assignWindows(null, ts))).toEqual([[Date.UTC(2020, 11, 31, 16), Date.UTC(2021, 0, 1, 16)]]);
  });

  it('sliding: every window of size that contains the timestamp, newest first, overlapping by size - slide', () => {
    const sliding = SlidingEventTimeWindows.of(10, 5);
    expect(bounds(sliding.assignWindows(null, 7))).toEqual([
      [5, 15],
      [0, 10],
    ]);
    expect(bounds(sliding.assignWindows(null, 5))).toEqual([
      [5, 15],
      [0, 10],
    ]);
    expect(bounds(sliding.assignWindows(null, 4))).toEqual([
      [0, 10],
      [-5, 5],
    ]);
    expect(bounds(sliding.assignWindows(null, -3))).toEqual([
      [-5, 5],
      [-10, 0],
    ]);
    expect(bounds(SlidingEventTimeWindows.of(9, 3).assignWindows(null, 10))).toEqual([
      [9, 18],
      [6, 15],
      [3, 12],
    ]);
    // Slide larger than size: gaps between windows; some timestamps fall in none.
    expect(bounds(SlidingEventTimeWindows.of(5, 10).assignWindows(null, 3))).toEqual([[0, 5]]);
    expect(bounds(SlidingEventTimeWindows.of(5, 10).assignWindows(null, 7))).toEqual([]);
    expect(bounds(SlidingEventTimeWindows.of(10, 5, -2).assignWindows(null, 4))).toEqual([
      [3, 13],
      [-2, 8],
    ]);
  });

  it('processing-time assigners take the processing time, not the element\'s', () => {
    expect(bounds(TumblingProcessingTimeWindows.of(100).assignWindows(null, 5, at(1_234)))).toEqual([[1_200, 1_300]]);
    expect(bounds(SlidingProcessingTimeWindows.of(100, 50).assignWindows(null, undefined, at(1_234)))).toEqual([
      [1_200, 1_300],
      [1_150, 1_250],
    ]);
    expect(bounds(ProcessingTimeSessionWindows.withGap(30).assignWindows(null, undefined, at(1_234)))).toEqual([[1_234, 1_264]]);
    expect(TumblingProcessingTimeWindows.of(100).isEventTime()).toBe(false);
    expect(TumblingProcessingTimeWindows.of(100).getDefaultTrigger()).toBeInstanceOf(ProcessingTimeTrigger);
  });

  it('sessions: one window of the gap per element, merged by the assigner where they overlap or touch', () => {
    const sessions = EventTimeSessionWindows.withGap(10);
    expect(bounds(sessions.assignWindows(null, 42))).toEqual([[42, 52]]);
    const merges: [number[][], number[]][] = [];
    sessions.mergeWindows([new TimeWindow(30, 40), new TimeWindow(0, 10), new TimeWindow(10, 20), new TimeWindow(50, 60), new TimeWindow(35, 45)], {
      merge: (merged, result) => merges.push([bounds(merged), [result.start, result.end]]),
    });
    expect(merges).toEqual([
      [
        [
          [0, 10],
          [10, 20],
        ],
        [0, 20],
      ],
      [
        [
          [30, 40],
          [35, 45],
        ],
        [30, 45],
      ],
    ]);
    const dynamic = EventTimeSessionWindows.withDynamicGap((e: { gap: number }) => e.gap);
    expect(bounds(dynamic.assignWindows({ gap: 7 }, 100))).toEqual([[100, 107]]);
    expect(errorOf(() => dynamic.assignWindows({ gap: 0 }, 100)).code).toBe('INVALID_WINDOW');
  });

  it('global: one window for everything, never firing by itself', () => {
    expect(GlobalWindows.create().assignWindows()).toEqual([GlobalWindow.get()]);
    expect(GlobalWindows.create().getDefaultTrigger()).toBeInstanceOf(NeverTrigger);
    expect(GlobalWindow.get().maxTimestamp()).toBe(Number.POSITIVE_INFINITY);
  });

  it('keeps a window under a namespace and gets it back from it', () => {
    const tumbling = TumblingEventTimeWindows.of(10);
    for (const window of [new TimeWindow(0, 10), new TimeWindow(-20, -10), new TimeWindow(-5, 5)]) {
      const ns = tumbling.namespaceOf(window);
      expect(tumbling.windowOf(ns)).toEqual(window);
    }
    expect(GlobalWindows.create().windowOf(GlobalWindows.create().namespaceOf(GlobalWindow.get()))).toBe(GlobalWindow.get());
  });

  it('refuses sizes, slides, gaps and offsets out of range, and elements without a timestamp', () => {
    expect(errorOf(() => TumblingEventTimeWindows.of(0))).toEqual({ code: 'INVALID_WINDOW', message: 'TumblingEventTimeWindows size must be a whole number of milliseconds > 0, got 0' });
    expect(errorOf(() => TumblingEventTimeWindows.of(10, 10)).message).toBe('TumblingEventTimeWindows offset must be a whole number of milliseconds with |offset| < 10, got 10');
    expect(errorOf(() => SlidingEventTimeWindows.of(10, -1)).code).toBe('INVALID_WINDOW');
    expect(errorOf(() => SlidingEventTimeWindows.of(10, 5, 5)).code).toBe('INVALID_WINDOW');
    expect(errorOf(() => EventTimeSessionWindows.withGap(1.5)).code).toBe('INVALID_WINDOW');
    const missing = errorOf(() => TumblingEventTimeWindows.of(10).assignWindows(null, undefined));
    expect(missing.code).toBe('MISSING_TIMESTAMP');
    expect(missing.message).toMatch(/^TumblingEventTimeWindows got a record without an event-time timestamp \(undefined\); give the source a WatermarkStrategy/);
  });
});
