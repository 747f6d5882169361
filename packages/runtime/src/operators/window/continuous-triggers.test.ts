import {
  ContinuousEventTimeTrigger,
  ContinuousProcessingTimeTrigger,
  CountTrigger,
  DeltaTrigger,
  EventTimeSessionWindows,
  GlobalWindows,
  ProcessWindowFunction,
  PurgingTrigger,
  TumblingEventTimeWindows,
  TumblingProcessingTimeWindows,
  type Collector,
  type OperatorSpec,
  type ProcessWindowContext,
  type Trigger,
  type Window,
  type WindowAssigner,
} from '@weir/api';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { heapBackend, levelSettings, restoreFrom, restoreInto, snapshot, tempDir } from '../../state/level/level-test-support.ts';
import { OperatorHarness } from '../../testing/operator-harness.ts';

type Event = { key: string; v: number };

/** "<key> <window start or 'global'>: <values>" per firing. */
class Values extends ProcessWindowFunction<Event, string, string, Window> {
  process(key: string, ctx: ProcessWindowContext<Window>, elements: Iterable<Event>, out: Collector<string>): void {
    const start = (ctx.window() as { start?: number }).start ?? 'global';
    out.collect(`${key} ${start}: ${[...elements].map((e) => e.v).join(',')}`);
  }
}

function spec(assigner: WindowAssigner<unknown, Window>, trigger: Trigger<unknown, Window>, lateness = 0): OperatorSpec {
  return {
    kind: 'window',
    key: (e) => (e as Event).key,
    window: { assigner, trigger, allowedLatenessMs: lateness, lateDataTag: undefined, function: { kind: 'process', process: new Values() as never } },
  };
}

async function harness(operator: OperatorSpec, options: ConstructorParameters<typeof OperatorHarness>[1] = {}): Promise<OperatorHarness> {
  const h = new OperatorHarness(operator, options);
  await h.open();
  return h;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('ContinuousEventTimeTrigger', () => {
  it('fires every interval of event time from the first element, aligned to the interval, and at the window end', async () => {
    const h = await harness(spec(TumblingEventTimeWindows.of(100), ContinuousEventTimeTrigger.of(30)));
    h.element({ key: 'a', v: 1 }, 5);
    h.watermark(29);
    expect(h.takeRecords()).toEqual([]);
    h.watermark(30);
    expect(h.takeRecords()).toEqual(['a 0: 1']);
    h.element({ key: 'a', v: 2 }, 40);
    h.watermark(70);
    expect(h.takeRecords()).toEqual(['a 0: 1,2']);
    h.element({ key: 'a', v: 3 }, 71);
    // 90, then the end (99): the next fire time is capped at the window end, one firing there.
    h.watermark(99);
    expect(h.takeRecords()).toEqual(['a 0: 1,2,3', 'a 0: 1,2,3']);
    expect(h.stateEntries()).toEqual({});
  });

  it('fires at once for a late element within the allowed lateness, and cleans its fire time up with the window', async () => {
    const h = await harness(spec(TumblingEventTimeWindows.of(100), ContinuousEventTimeTrigger.of(50), 50));
    h.element({ key: 'a', v: 1 }, 10);
    h.watermark(100);
    expect(h.takeRecords()).toEqual(['a 0: 1', 'a 0: 1']);
    h.element({ key: 'a', v: 2 }, 20);
    expect(h.takeRecords()).toEqual(['a 0: 1,2']);
    h.watermark(149);
    expect(h.takeRecords()).toEqual([]);
    expect(h.stateEntries()).toEqual({});
  });

  it('with a PurgingTrigger each firing sees what came since the last', async () => {
    const h = await harness(spec(TumblingEventTimeWindows.of(100), PurgingTrigger.of(ContinuousEventTimeTrigger.of(25)) as Trigger<unknown, Window>));
    for (const [v, ts] of [[1, 1], [2, 30], [3, 31], [4, 80]] as const) h.element({ key: 'a', v }, ts);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.takeRecords()).toEqual(['a 0: 1,2,3,4']);
    const stepwise = await harness(spec(TumblingEventTimeWindows.of(100), PurgingTrigger.of(ContinuousEventTimeTrigger.of(25)) as Trigger<unknown, Window>));
    for (const [v, ts] of [[1, 1], [2, 30], [3, 31], [4, 80]] as const) {
      stepwise.watermark(ts - 1);
      stepwise.element({ key: 'a', v }, ts);
    }
    stepwise.watermark(Number.POSITIVE_INFINITY);
    // Fire times 25, 50, 75, 99: the last two find the window purged and empty, which does not fire.
    expect(stepwise.takeRecords()).toEqual(['a 0: 1', 'a 0: 2,3', 'a 0: 4']);
    expect(stepwise.stateEntries()).toEqual({});
  });

  it('merging sessions keep the earliest fire time and fire the merged session on it', async () => {
    const h = await harness(spec(EventTimeSessionWindows.withGap(30), ContinuousEventTimeTrigger.of(20)));
    h.element({ key: 'a', v: 1 }, 45); // [45,75), fire time 60
    h.element({ key: 'a', v: 2 }, 5); // [5,35), fire time 20
    h.element({ key: 'a', v: 3 }, 30); // [30,60) bridges both: [5,75), fire time 20
    // Merged contents: the kept state window's first, then the others' (as Flink's list state merges).
    h.watermark(20);
    expect(h.takeRecords()).toEqual(['a 5: 2,1,3']);
    h.watermark(40);
    expect(h.takeRecords()).toEqual(['a 5: 2,1,3']);
    h.watermark(Number.POSITIVE_INFINITY);
    // 60, then the session's end 74.
    expect(h.takeRecords()).toEqual(['a 5: 2,1,3', 'a 5: 2,1,3']);
    expect(h.stateEntries()).toEqual({});
  });

  it('keeps firing a GlobalWindow every interval, and once more at the final watermark', async () => {
    const h = await harness(spec(GlobalWindows.create(), ContinuousEventTimeTrigger.of(100)));
    h.element({ key: 'a', v: 1 }, 150);
    h.watermark(200);
    h.element({ key: 'a', v: 2 }, 250);
    h.watermark(299);
    h.watermark(300);
    expect(h.takeRecords()).toEqual(['a global: 1', 'a global: 1,2']);
    h.watermark(Number.POSITIVE_INFINITY);
    // The pending fire time (400), then the window's end: not every 100 ms to the end of time.
    expect(h.takeRecords()).toEqual(['a global: 1,2', 'a global: 1,2']);
    expect(h.stateEntries()).toEqual({ '__weir_window-contents': 1 });
  });

  it('keeps its fire time and timer across a checkpoint and restore', async () => {
    const checkpointDir = tempDir('continuous-trigger');
    dirs.push(checkpointDir);
    const operator = () => spec(TumblingEventTimeWindows.of(100), ContinuousEventTimeTrigger.of(30));
    const before = await harness(operator());
    before.element({ key: 'a', v: 1 }, 5);
    before.watermark(30);
    expect(before.takeRecords()).toEqual(['a 0: 1']);
    const { state } = await snapshot(levelSettings(checkpointDir, false), before.backend!, 1);

    const backend = heapBackend();
    await restoreInto(restoreFrom(checkpointDir, 1, state), backend);
    const after = await harness(operator(), { backend: () => backend, restored: true });
    after.watermark(59);
    expect(after.takeRecords()).toEqual([]);
    after.watermark(60);
    expect(after.takeRecords()).toEqual(['a 0: 1']);
    after.element({ key: 'a', v: 2 }, 61);
    after.watermark(Number.POSITIVE_INFINITY);
    expect(after.takeRecords()).toEqual(['a 0: 1,2', 'a 0: 1,2']);
    expect(after.stateEntries()).toEqual({});
  });
});

describe('ContinuousProcessingTimeTrigger', () => {
  it('fires every interval of processing time, aligned to the interval, capped at the window end, and leaves no state', async () => {
    const h = await harness(spec(TumblingProcessingTimeWindows.of(1_000), ContinuousProcessingTimeTrigger.of(250)), { start: 10_050 });
    h.element({ key: 'a', v: 1 });
    h.advance(199);
    expect(h.takeRecords()).toEqual([]);
    h.advance(1); // 10_250
    expect(h.takeRecords()).toEqual(['a 10000: 1']);
    h.element({ key: 'a', v: 2 });
    h.advance(500); // 10_500 and 10_750
    expect(h.takeRecords()).toEqual(['a 10000: 1,2', 'a 10000: 1,2']);
    h.advance(249); // 10_999: the window's end
    expect(h.takeRecords()).toEqual(['a 10000: 1,2']);
    h.advance(10_000);
    expect(h.takeRecords()).toEqual([]);
    expect(h.stateEntries()).toEqual({});
  });

  it('keeps firing a GlobalWindow every interval', async () => {
    const h = await harness(spec(GlobalWindows.create(), ContinuousProcessingTimeTrigger.of(100)), { start: 0 });
    h.element({ key: 'a', v: 1 });
    h.advance(100);
    h.advance(100);
    expect(h.takeRecords()).toEqual(['a global: 1', 'a global: 1']);
  });
});

describe('DeltaTrigger', () => {
  it('fires when an element is more than the threshold away from the element of the last firing', async () => {
    const delta = DeltaTrigger.of(3, (last: Event, next: Event) => next.v - last.v);
    const h = await harness(spec(GlobalWindows.create(), delta as Trigger<unknown, Window>));
    for (const v of [1, 2, 4, 5, 8, 9]) h.element({ key: 'a', v });
    // 4 - 1 = 3 is not above 3; 5 - 1 = 4 fires; 9 - 5 = 4 fires.
    expect(h.takeRecords()).toEqual(['a global: 1,2,4,5', 'a global: 1,2,4,5,8,9']);
  });

  it('cannot merge, as in Flink', () => {
    expect(DeltaTrigger.of(1, () => 0).canMerge()).toBe(false);
  });
});

describe('CountTrigger on sessions', () => {
  it('adds up the counts of merged sessions (onMerge) and clears them with the session', async () => {
    const h = await harness(spec(EventTimeSessionWindows.withGap(10), CountTrigger.of(3) as Trigger<unknown, Window>));
    h.element({ key: 'a', v: 1 }, 0);
    h.element({ key: 'a', v: 2 }, 15);
    expect(h.takeRecords()).toEqual([]);
    h.element({ key: 'a', v: 3 }, 8); // merges all: 3 elements
    expect(h.takeRecords()).toEqual(['a 0: 1,2,3']);
    h.watermark(Number.POSITIVE_INFINITY);
    expect(h.stateEntries()).toEqual({});
  });
});
