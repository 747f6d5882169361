import {
  CollectionSource,
  ProcessFunction,
  StaticSplitEnumerator,
  Watermark,
  WatermarkStrategy,
  type CollectionSplit,
  type Collector,
  type ProcessContext,
  type SplitEnumeratorContext,
} from '@weir/api';
import { describe, expect, it } from 'vitest';
import { CollectingSink, runJob } from '../testing/harness.ts';

type Event = { split: string; ts: number };

/** A collection source whose items are cut into the given splits, all dealt to the readers as StaticSplitEnumerator deals them. */
class SplitCollection extends CollectionSource<Event> {
  constructor(
    items: readonly Event[],
    private readonly cuts: readonly [number, number][],
  ) {
    super(items);
  }

  override createEnumerator(context: SplitEnumeratorContext<CollectionSplit>): StaticSplitEnumerator<CollectionSplit> {
    return new StaticSplitEnumerator(context, this.cuts.map(([next, end], k) => ({ splitId: `split-${k}`, next, end })));
  }
}

/** Every record with whether it came at or behind the watermark (late for an event-time window). */
class MarkLate extends ProcessFunction<Event, string> {
  processElement(event: Event, ctx: ProcessContext, out: Collector<string>): void {
    const late = ctx.timestamp()! <= ctx.timerService().currentWatermark();
    out.collect(`${event.split}@${event.ts}${late ? ' LATE' : ''}`);
  }
}

// A punctuated generator: each record's timestamp is at once its split's watermark, so no periodic emission is needed.
const punctuated = WatermarkStrategy.forGenerator<Event>(() => ({
  onEvent: (_event, timestamp, output) => output.emitWatermark(new Watermark(timestamp)),
  onPeriodicEmit: () => {},
})).withTimestampAssigner((e) => e.ts);

describe('a split source\'s watermark', () => {
  it('is held back by a split that was assigned but has emitted nothing yet, so its records are not late', async () => {
    // The reader reads its two splits one after the other: all of "a" (later times) first, then all of "b" (earlier).
    const a = Array.from({ length: 5 }, (_, i): Event => ({ split: 'a', ts: 1000 + i * 100 }));
    const b = Array.from({ length: 5 }, (_, i): Event => ({ split: 'b', ts: 100 + i * 100 }));
    const sink = new CollectingSink<string>();
    const job = await runJob((env) => {
      env.setParallelism(1);
      env
        .fromSource(new SplitCollection([...a, ...b], [[0, 5], [5, 10]]), punctuated, 'two splits')
        .process(new MarkLate())
        .sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(sink.values()).toEqual([...a, ...b].map((e) => `${e.split}@${e.ts}`));
  });

  it('does not wait for a split that had nothing to read when it came', async () => {
    const items = Array.from({ length: 4 }, (_, i): Event => ({ split: 'a', ts: 100 * (i + 1) }));
    const sink = new CollectingSink<string>();
    const job = await runJob((env) => {
      env.setParallelism(1);
      env
        .fromSource(new SplitCollection(items, [[0, 0], [0, 4]]), punctuated, 'an empty split first')
        .process(new MarkLate())
        .sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(sink.values()).toEqual(items.map((e) => `a@${e.ts}`));
  });
});
