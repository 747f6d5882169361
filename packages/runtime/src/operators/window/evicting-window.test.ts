import {
  ContinuousEventTimeTrigger,
  CountEvictor,
  CountTrigger,
  DeltaEvictor,
  EventTimeSessionWindows,
  GlobalWindows,
  ProcessWindowFunction,
  TimeEvictor,
  TumblingEventTimeWindows,
  type AggregateFunction,
  type Collector,
  type Evictor,
  type OperatorSpec,
  type ProcessWindowContext,
  type ReduceFunction,
  type TimestampedValue,
  type TimeWindow,
  type Trigger,
  type Window,
  type WindowAssigner,
  type WindowFunctionSpec,
} from '@weir/api';
import type { ManualClock } from '@weir/common/testing';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import { LevelKeyedStateBackend } from '../../state/level/level-keyed-state-backend.ts';
import { keyContext, tempDir } from '../../state/level/level-test-support.ts';
import { OperatorHarness } from '../../testing/operator-harness.ts';

type Event = { key: string; v: number };

/** "<key>@<window end or 'global'>: <values>" per firing. */
class Show extends ProcessWindowFunction<unknown, string, string, Window> {
  process(key: string, ctx: ProcessWindowContext<Window>, elements: Iterable<unknown>, out: Collector<string>): void {
    const window = ctx.window() as { end?: number };
    const shown = [...elements].map((e) => (typeof e === 'object' && e !== null ? (e as Event).v : e));
    out.collect(`${key}@${window.end ?? 'global'}: ${shown.join(',')}`);
  }
}

const listing: WindowFunctionSpec = { kind: 'process', process: new Show() as never };
const sum: ReduceFunction<Event> = { reduce: (a, b) => ({ key: a.key, v: a.v + b.v }) };
const count: AggregateFunction<Event, number, number> = { createAccumulator: () => 0, add: (_e, a) => a + 1, getResult: (a) => a, merge: (a, b) => a + b };

function evicting(
  assigner: WindowAssigner<unknown, Window>,
  evictor: Evictor<unknown, Window>,
  options: { fn?: WindowFunctionSpec; trigger?: Trigger<unknown, Window>; lateness?: number; backend?: (clock: ManualClock) => KeyedStateBackend } = {},
): Promise<OperatorHarness> {
  const spec: OperatorSpec = {
    kind: 'window',
    key: (e) => (e as Event).key,
    window: {
      assigner,
      trigger: options.trigger ?? assigner.getDefaultTrigger(),
      evictor,
      allowedLatenessMs: options.lateness ?? 0,
      lateDataTag: undefined,
      function: options.fn ?? listing,
    },
  };
  const h = new OperatorHarness(spec, { backend: options.backend });
  return h.open().then(() => h);
}

const feed = (h: OperatorHarness, key: string, pairs: [v: number, ts: number][]) => {
  for (const [v, ts] of pairs) h.element({ key, v }, ts);
};

describe('WindowOperator with an evictor', () => {
  it('CountEvictor before the function: a tumbling window fires with its last elements only, and leaves no state', async () => {
    const h = await evicting(TumblingEventTimeWindows.of(10), CountEvictor.of(2));
    feed(h, 'a', [[1, 1], [2, 2], [3, 3], [4, 12]]);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual(['a@10: 2,3', 'a@20: 4']);
    expect(h.stateEntries()).toEqual({});
  });

  it('keeps what is left after eviction for the next firing; doEvictAfter lets the function see everything first', async () => {
    const trigger = CountTrigger.of(2) as Trigger<unknown, Window>;
    const before = await evicting(GlobalWindows.create(), CountEvictor.of(3), { trigger });
    const after = await evicting(GlobalWindows.create(), CountEvictor.of(3, true), { trigger });
    for (const h of [before, after]) feed(h, 'a', [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6]]);
    expect(before.takeRecords()).toEqual(['a@global: 1,2', 'a@global: 2,3,4', 'a@global: 4,5,6']);
    expect(after.takeRecords()).toEqual(['a@global: 1,2', 'a@global: 1,2,3,4', 'a@global: 2,3,4,5,6']);
  });

  it('sliding count windows: countWindow(size, slide) is a CountEvictor of size and a CountTrigger of slide', async () => {
    const h = await evicting(GlobalWindows.create(), CountEvictor.of(3), { trigger: CountTrigger.of(1) as Trigger<unknown, Window> });
    feed(h, 'a', [[1, 1], [2, 2], [3, 3], [4, 4]]);
    expect(h.takeRecords()).toEqual(['a@global: 1', 'a@global: 1,2', 'a@global: 1,2,3', 'a@global: 2,3,4']);
  });

  it('reduce and aggregate run over the elements left at each firing, not per element', async () => {
    const reduce = await evicting(TumblingEventTimeWindows.of(10), TimeEvictor.of(3), { fn: { kind: 'reduce', reduce: sum as never, process: undefined } });
    const aggregate = await evicting(TumblingEventTimeWindows.of(10), TimeEvictor.of(3), { fn: { kind: 'aggregate', aggregate: count as never, process: undefined } });
    for (const h of [reduce, aggregate]) {
      feed(h, 'a', [[1, 1], [10, 5], [100, 7], [1000, 8]]);
      h.watermark(Number.POSITIVE_INFINITY);
    }
    // Newest 8: the cutoff 5 leaves 7 and 8.
    expect(reduce.takeRecords()).toEqual([{ key: 'a', v: 1100 }]);
    expect(aggregate.takeRecords()).toEqual([2]);
    expect(reduce.stateEntries()).toEqual({});
  });

  it('when evictBefore removes everything: process gets no elements, aggregate its empty accumulator, reduce emits nothing', async () => {
    const all = CountEvictor.of(0);
    const process = await evicting(TumblingEventTimeWindows.of(10), all);
    const aggregate = await evicting(TumblingEventTimeWindows.of(10), all, { fn: { kind: 'aggregate', aggregate: count as never, process: undefined } });
    const reduce = await evicting(TumblingEventTimeWindows.of(10), all, { fn: { kind: 'reduce', reduce: sum as never, process: undefined } });
    for (const h of [process, aggregate, reduce]) {
      feed(h, 'a', [[1, 1]]);
      h.watermark(Number.POSITIVE_INFINITY);
    }
    expect(process.takeRecords()).toEqual(['a@10: ']);
    expect(aggregate.takeRecords()).toEqual([0]);
    expect(reduce.takeRecords()).toEqual([]);
  });

  it('a late element within the allowed lateness fires the window again with the kept elements plus it, evicted again', async () => {
    const h = await evicting(TumblingEventTimeWindows.of(10), DeltaEvictor.of(5, (a: Event, b: Event) => Math.abs(a.v - b.v)), { lateness: 20 });
    feed(h, 'a', [[1, 1], [3, 2], [20, 3]]);
    h.watermark(10);
    expect(h.takeRecords()).toEqual(['a@10: 20']);
    h.element({ key: 'a', v: 2 }, 4);
    // Kept: 20; with 2 the last element, 20 is 18 away.
    expect(h.takeRecords()).toEqual(['a@10: 2']);
    h.watermark(29);
    expect(h.stateEntries()).toEqual({});
  });

  it('merging sessions keep every element with its timestamp: TimeEvictor works on the merged session', async () => {
    const h = await evicting(EventTimeSessionWindows.withGap(10), TimeEvictor.of(10));
    feed(h, 'a', [[1, 0], [2, 30], [3, 15]]);
    // [8,18) bridges [0,10) and [15,25): session [0,25) holds 0, 15, 8.
    feed(h, 'a', [[4, 8]]);
    h.watermark(Number.POSITIVE_INFINITY);
    // Newest 15: cutoff 5 evicts the element at 0.
    expect(h.takeRecords()).toEqual(['a@25: 3,4', 'a@40: 2']);
    expect(h.stateEntries()).toEqual({});
  });

  it('gives the evictor the window and the current watermark and processing time', async () => {
    const seen: string[] = [];
    const spy: Evictor<unknown, Window> = {
      evictBefore: (elements: TimestampedValue<unknown>[], size, window, ctx) =>
        void seen.push(`before ${size} ${(window as TimeWindow).end} wm=${ctx.getCurrentWatermark()} pt=${ctx.getCurrentProcessingTime()}`),
      evictAfter: (elements: TimestampedValue<unknown>[], size) => void seen.push(`after ${size} ${elements.map((e) => e.getTimestamp()).join(',')}`),
    };
    const h = await evicting(TumblingEventTimeWindows.of(10), spy, { trigger: ContinuousEventTimeTrigger.of(5) as Trigger<unknown, Window> });
    h.advance(7);
    feed(h, 'a', [[1, 1]]);
    h.watermark(5);
    feed(h, 'a', [[2, 6]]);
    h.watermark(9);
    expect(seen).toEqual(['before 1 10 wm=5 pt=7', 'after 1 1', 'before 2 10 wm=9 pt=7', 'after 2 1,6']);
    expect(h.takeRecords()).toEqual(['a@10: 1', 'a@10: 1,2']);
  });

  it('keeps the timestamped elements in LevelDB the same way, and evicts what it kept', async () => {
    const local = tempDir('evicting-level');
    try {
      const h = await evicting(EventTimeSessionWindows.withGap(10), TimeEvictor.of(10), {
        backend: (clock) =>
          new LevelKeyedStateBackend({ keys: keyContext(1, 0), label: 'Op', localStateDir: local, jobId: 'j', operatorId: 'op', subtaskIndex: 0, incremental: false, work: undefined, clock }),
      });
      feed(h, 'a', [[1, 0], [2, 30], [3, 15], [4, 8]]);
      h.watermark(Number.POSITIVE_INFINITY);
      expect(h.takeRecords()).toEqual(['a@25: 3,4', 'a@40: 2']);
      await (h.backend as LevelKeyedStateBackend).dispose();
    } finally {
      await rm(local, { recursive: true, force: true });
    }
  });
});
