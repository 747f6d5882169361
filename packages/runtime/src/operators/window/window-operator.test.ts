import {
  EventTimeSessionWindows,
  ProcessingTimeSessionWindows,
  ProcessWindowFunction,
  SlidingEventTimeWindows,
  TumblingEventTimeWindows,
  TumblingProcessingTimeWindows,
  Types,
  ValueStateDescriptor,
  type AggregateFunction,
  type Collector,
  type OperatorSpec,
  type ProcessWindowContext,
  type TimeWindow,
  type Window,
  type WindowAssigner,
  type WindowFunctionSpec,
} from '@weir/api';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { keyContext, tempDir } from '../../state/level/level-test-support.ts';
import { LevelKeyedStateBackend } from '../../state/level/level-keyed-state-backend.ts';
import { OperatorHarness } from '../../testing/operator-harness.ts';

type Event = { key: string; v: number };

const count: AggregateFunction<Event, number, number> = { createAccumulator: () => 0, add: (_e, a) => a + 1, getResult: (a) => a, merge: (a, b) => a + b };

/** "<key> [start,end) <result>" per firing. */
class Describe extends ProcessWindowFunction<unknown, string, string, TimeWindow> {
  process(key: string, ctx: ProcessWindowContext<TimeWindow>, results: Iterable<unknown>, out: Collector<string>): void {
    out.collect(`${key} [${ctx.window().start},${ctx.window().end}) ${[...results].map((r) => (typeof r === 'object' ? (r as Event).v : r)).join(',')}`);
  }
}

function windowSpec(assigner: WindowAssigner<unknown, Window>, fn: WindowFunctionSpec, options: { lateness?: number; lateTag?: string } = {}): OperatorSpec {
  return {
    kind: 'window',
    key: (e) => (e as Event).key,
    window: { assigner, trigger: assigner.getDefaultTrigger(), allowedLatenessMs: options.lateness ?? 0, lateDataTag: options.lateTag, function: fn },
  };
}

const counting = (): WindowFunctionSpec => ({ kind: 'aggregate', aggregate: count as AggregateFunction<unknown, unknown, unknown>, process: new Describe() as never });
const listing = (): WindowFunctionSpec => ({ kind: 'process', process: new Describe() as never });

async function harness(spec: OperatorSpec, start = 0): Promise<OperatorHarness> {
  const h = new OperatorHarness(spec, { start });
  await h.open();
  return h;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('WindowOperator', () => {
  it('fires a tumbling event-time window when the watermark passes its end, with its max timestamp, before passing the watermark on', async () => {
    const h = await harness(windowSpec(TumblingEventTimeWindows.of(10), counting()));
    h.element({ key: 'a', v: 1 }, 3);
    h.element({ key: 'a', v: 2 }, 9);
    h.element({ key: 'b', v: 3 }, 10);
    h.element({ key: 'a', v: 4 }, -1);
    h.watermark(8);
    expect(h.emitted).toEqual([
      { kind: 'record', value: 'a [-10,0) 1', timestamp: -1 },
      { kind: 'watermark', timestamp: 8 },
    ]);
    h.emitted.length = 0;
    h.watermark(9);
    expect(h.emitted).toEqual([
      { kind: 'record', value: 'a [0,10) 2', timestamp: 9 },
      { kind: 'watermark', timestamp: 9 },
    ]);
    h.emitted.length = 0;
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual(['b [10,20) 1']);
    expect(h.stateEntries()).toEqual({});
  });

  it('puts an element into every sliding window that covers it, and fires each once', async () => {
    const h = await harness(windowSpec(SlidingEventTimeWindows.of(10, 5), counting()));
    for (const [v, ts] of [[1, 0], [2, 4], [3, 7], [4, 12]] as const) h.element({ key: 'k', v }, ts);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual(['k [-5,5) 2', 'k [0,10) 3', 'k [5,15) 2', 'k [10,20) 1']);
    expect(h.stateEntries()).toEqual({});
  });

  it('with allowed lateness: a late element fires its window again with the update; after the lateness it goes to the side output', async () => {
    const h = await harness(windowSpec(TumblingEventTimeWindows.of(10), counting(), { lateness: 5, lateTag: 'late' }));
    h.element({ key: 'a', v: 1 }, 2);
    h.watermark(10);
    expect(h.takeRecords()).toEqual(['a [0,10) 1']);
    h.element({ key: 'a', v: 2 }, 5);
    expect(h.takeRecords()).toEqual(['a [0,10) 2']);
    // The window is kept until 9 + 5.
    expect(h.stateEntries()).toEqual({ '__weir_window-contents': 1, __weir_timers_window: 1 });
    h.watermark(14);
    expect(h.stateEntries()).toEqual({});
    h.element({ key: 'a', v: 3 }, 6);
    expect(h.emitted).toEqual([
      { kind: 'watermark', timestamp: 14 },
      { kind: 'side', tag: 'late', value: { key: 'a', v: 3 }, timestamp: 6 },
    ]);
    expect(h.stateEntries()).toEqual({});
  });

  it('drops too-late elements without a late-data tag and counts them', async () => {
    const h = await harness(windowSpec(TumblingEventTimeWindows.of(10), counting()));
    h.watermark(100);
    h.element({ key: 'a', v: 1 }, 50);
    expect(h.takeRecords()).toEqual([]);
    expect((h.operator as unknown as { lateRecordsDropped: number }).lateRecordsDropped).toBe(1);
    expect(h.stateEntries()).toEqual({});
  });

  it('merges session windows as elements bridge them, keeps merged contents, and cleans every session up', async () => {
    const h = await harness(windowSpec(EventTimeSessionWindows.withGap(10), listing()));
    h.element({ key: 'a', v: 1 }, 0);
    h.element({ key: 'a', v: 2 }, 30);
    h.element({ key: 'b', v: 3 }, 5);
    // Contents and timers per (key, window); the merging set per key.
    expect(h.stateEntries()).toEqual({ '__weir_window-contents': 3, __weir_timers_window: 3, '__weir_merging-windows': 2 });
    h.element({ key: 'a', v: 4 }, 15); // [15,25) touches neither [0,10) nor [30,40)
    h.element({ key: 'a', v: 5 }, 8); // [8,18) bridges [0,10) and [15,25): [0,25)
    h.watermark(24);
    expect(h.takeRecords()).toEqual(['b [5,15) 3', 'a [0,25) 1,4,5']);
    h.element({ key: 'a', v: 6 }, 38); // joins [30,40): [30,48)
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual(['a [30,48) 2,6']);
    expect(h.stateEntries()).toEqual({});
  });

  it('merges a late element into a session within the allowed lateness and fires the grown session again', async () => {
    const h = await harness(windowSpec(EventTimeSessionWindows.withGap(10), counting(), { lateness: 20 }));
    h.element({ key: 'a', v: 1 }, 0);
    h.watermark(10);
    expect(h.takeRecords()).toEqual(['a [0,10) 1']);
    // [5,15) merges with [0,10): the grown session ends after the watermark, so it fires again when the watermark passes 14.
    h.element({ key: 'a', v: 2 }, 5);
    expect(h.takeRecords()).toEqual([]);
    h.watermark(14);
    expect(h.takeRecords()).toEqual(['a [0,15) 2']);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual([]);
    expect(h.stateEntries()).toEqual({});
  });

  it('fires processing-time tumbling windows from the clock, and only what came before their end', async () => {
    const h = await harness(windowSpec(TumblingProcessingTimeWindows.of(1_000), counting()), 10_000);
    h.element({ key: 'a', v: 1 });
    h.advance(500);
    h.element({ key: 'a', v: 2 });
    // The window fires at its max timestamp, 10999.
    h.advance(498);
    expect(h.takeRecords()).toEqual([]);
    h.advance(1);
    expect(h.takeRecords()).toEqual(['a [10000,11000) 2']);
    h.advance(1);
    h.element({ key: 'a', v: 3 });
    h.advance(999);
    expect(h.takeRecords()).toEqual(['a [11000,12000) 1']);
    expect(h.stateEntries()).toEqual({});
  });

  it('fires processing-time sessions after the gap without elements', async () => {
    const h = await harness(windowSpec(ProcessingTimeSessionWindows.withGap(100), listing()), 0);
    h.element({ key: 'a', v: 1 });
    h.advance(60);
    h.element({ key: 'a', v: 2 });
    h.advance(98);
    expect(h.takeRecords()).toEqual([]);
    h.advance(1);
    expect(h.takeRecords()).toEqual(['a [0,160) 1,2']);
    expect(h.stateEntries()).toEqual({});
  });

  it('reduce with a ProcessWindowFunction: window state lives and dies with the window, global state with the key', async () => {
    const firings = new ValueStateDescriptor<number>('firings', Types.NUMBER);
    const total = new ValueStateDescriptor<number>('total', Types.NUMBER);
    class Tally extends ProcessWindowFunction<Event, string, string, TimeWindow> {
      process(key: string, ctx: ProcessWindowContext<TimeWindow>, sums: Iterable<Event>, out: Collector<string>): void {
        const fired = (ctx.windowState().getState(firings).value() ?? 0) + 1;
        ctx.windowState().getState(firings).update(fired);
        const sum = [...sums][0]!.v;
        const all = (ctx.globalState().getState(total).value() ?? 0) + sum;
        ctx.globalState().getState(total).update(all);
        out.collect(`${key} ${ctx.window().start} sum=${sum} firing=${fired} total=${all}`);
      }
      override clear(ctx: ProcessWindowContext<TimeWindow>): void {
        ctx.windowState().getState(firings).clear();
      }
    }
    const reduce = { reduce: (a: Event, b: Event) => ({ key: a.key, v: a.v + b.v }) };
    const h = await harness(windowSpec(TumblingEventTimeWindows.of(10), { kind: 'reduce', reduce: reduce as never, process: new Tally() as never }, { lateness: 100 }));
    h.element({ key: 'a', v: 1 }, 1);
    h.element({ key: 'a', v: 2 }, 2);
    h.watermark(10);
    h.element({ key: 'a', v: 4 }, 3);
    h.element({ key: 'a', v: 8 }, 12);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual(['a 0 sum=3 firing=1 total=3', 'a 0 sum=7 firing=2 total=10', 'a 10 sum=8 firing=1 total=18']);
    expect(h.stateEntries()).toEqual({ total: 1 });
  });

  it.each([
    ['sliding windows with allowed lateness', () => windowSpec(SlidingEventTimeWindows.of(100, 50), counting(), { lateness: 30, lateTag: 'late' })],
    ['sessions', () => windowSpec(EventTimeSessionWindows.withGap(40), listing())],
  ])('keeps state bounded by the open windows over a long run, and leaves none: %s', async (_name, spec) => {
    const h = await harness(spec());
    const keys = 50;
    let maxEntries = 0;
    for (let step = 0; step < 2_000; step++) {
      // 20 ms of event time per step, every key, a bit out of order.
      for (let k = 0; k < keys; k++) h.element({ key: `k${k}`, v: step }, step * 20 + ((k * 7 + step) % 15));
      h.watermark(step * 20 - 20);
      const entries = Object.values(h.stateEntries()).reduce((a, b) => a + b, 0);
      maxEntries = Math.max(maxEntries, entries);
      h.emitted.length = 0;
    }
    // Per key: the few windows open around the watermark, their timers, the merging set; never the 2000 steps' worth.
    expect(maxEntries).toBeLessThan(keys * 12);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.stateEntries()).toEqual({});
  });

  it('keeps window contents, trigger state and timers in LevelDB the same way', async () => {
    const local = tempDir('window-level');
    dirs.push(local);
    const spec = windowSpec(EventTimeSessionWindows.withGap(10), listing());
    const h = new OperatorHarness(spec, {
      backend: (clock) =>
        new LevelKeyedStateBackend({ keys: keyContext(1, 0), label: 'Op', localStateDir: local, jobId: 'j', operatorId: 'op', subtaskIndex: 0, incremental: false, work: undefined, clock }),
    });
    await h.open();
    for (const [v, ts] of [[1, 0], [2, 30], [4, 15], [5, 8]] as const) h.element({ key: 'a', v }, ts);
    h.element({ key: 'b', v: 3 }, 5);
    h.watermark(24);
    expect(h.takeRecords()).toEqual(['b [5,15) 3', 'a [0,25) 1,4,5']);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual(['a [30,40) 2']);
    const level = h.backend as LevelKeyedStateBackend;
    expect(await level.internalValues('timers_window')).toEqual([]);
    expect(await level.internalValues('merging-windows')).toEqual([]);
    await level.dispose();
  });

  it('names the window operator in errors of the user functions', async () => {
    const failing = { createAccumulator: () => 0, add: () => { throw new Error('boom'); }, getResult: (a: number) => a, merge: (a: number) => a };
    const h = await harness(windowSpec(TumblingEventTimeWindows.of(10), { kind: 'aggregate', aggregate: failing as never, process: undefined }));
    expect(() => h.element({ key: 'a', v: 1 }, 1)).toThrow(/^Op \(1\/1\) failed: boom/);
  });
});
