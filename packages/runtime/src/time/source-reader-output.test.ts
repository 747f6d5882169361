import { Watermark, WatermarkStrategy } from '@weir/api';
import { ManualClock } from '@weir/common/testing';
import { describe, expect, it } from 'vitest';
import { FailureWrapper } from '../operators/operator-failure.ts';
import type { Output } from '../operators/output.ts';
import { ProcessingTimeService } from './processing-time-service.ts';
import { RecordTimestamp } from './record-timestamp.ts';
import { SourceReaderOutput } from './source-reader-output.ts';

type Event = { split: string; ts: number };

function readerOutput(strategy: WatermarkStrategy<Event>, clock = new ManualClock()) {
  const seen: (string | number)[] = [];
  const slot = new RecordTimestamp();
  const chain: Output = {
    collect: (record) => void seen.push(`${(record as Event).split}@${slot.value}`),
    collectSide: () => {},
    emitWatermark: (ts) => void seen.push(ts),
    emitWatermarkStatus: (idle) => void seen.push(idle ? 'idle' : 'active'),
  };
  const output = new SourceReaderOutput(chain, slot, strategy as WatermarkStrategy<unknown>, new ProcessingTimeService(clock, () => {}), new FailureWrapper('Source (1/1)'));
  return { output, seen, clock };
}

const byTs = WatermarkStrategy.forMonotonousTimestamps<Event>().withTimestampAssigner((e) => e.ts);

describe('SourceReaderOutput', () => {
  it('gives records the assigner\'s timestamp and emits the generator\'s watermark periodically, only when it rises', () => {
    const { output, seen } = readerOutput(byTs);
    output.collect({ split: 'r', ts: 10 });
    output.collect({ split: 'r', ts: 5 });
    output.emitPeriodicWatermark();
    output.emitPeriodicWatermark();
    output.collect({ split: 'r', ts: 20 });
    output.emitPeriodicWatermark();
    expect(seen).toEqual(['r@10', 'r@5', 9, 'r@20', 19]);
    expect(output.currentWatermark).toBe(19);
  });

  it('emits a record before the watermark its generator emits on it (a punctuated generator), so the record is not late', () => {
    const punctuated = WatermarkStrategy.forGenerator<Event>(() => ({
      onEvent: (_event, timestamp, out) => out.emitWatermark(new Watermark(timestamp)),
      onPeriodicEmit: () => {},
    })).withTimestampAssigner((e) => e.ts);
    const { output, seen } = readerOutput(punctuated);
    output.collect({ split: 'r', ts: 10 });
    output.collect({ split: 'r', ts: 20 });
    expect(seen).toEqual(['r@10', 10, 'r@20', 20]);
  });

  it('keeps a watermark per split: the slowest split that is not idle holds it back; a released split no longer does', () => {
    const { output, seen } = readerOutput(byTs.withIdleness(1_000));
    const a = output.createOutputForSplit('a');
    const b = output.createOutputForSplit('b');
    expect(output.createOutputForSplit('a')).toBe(a);
    a.collect({ split: 'a', ts: 100 });
    b.collect({ split: 'b', ts: 30 });
    output.emitPeriodicWatermark();
    b.collect({ split: 'b', ts: 60 });
    output.emitPeriodicWatermark();
    expect(seen).toEqual(['a@100', 'b@30', 29, 'b@60', 59]);
    output.releaseOutputForSplit('b');
    expect(seen.at(-1)).toBe(99);
  });

  it('lets an idle split go: the watermark follows the active ones, and the reader is idle when all are', () => {
    const { output, seen, clock } = readerOutput(byTs.withIdleness(1_000));
    const a = output.createOutputForSplit('a');
    const b = output.createOutputForSplit('b');
    a.collect({ split: 'a', ts: 100 });
    b.collect({ split: 'b', ts: 30 });
    output.emitPeriodicWatermark();
    for (let t = 0; t < 6; t++) {
      clock.advance(300);
      a.collect({ split: 'a', ts: 200 + t });
      output.emitPeriodicWatermark();
    }
    // b is idle once 1 s passed since the first periodic check that found it without records (at 1500 ms): then a alone moves the watermark.
    expect(seen.filter((s) => typeof s === 'number')).toEqual([29, 203, 204]);
    seen.length = 0;
    for (let t = 0; t < 6; t++) {
      clock.advance(300);
      output.emitPeriodicWatermark();
    }
    expect(seen).toEqual(['idle']);
    b.collect({ split: 'b', ts: 500 });
    output.emitPeriodicWatermark();
    // a is idle too by now: b alone sets the watermark.
    expect(seen).toEqual(['idle', 'b@500', 'active', 499]);
  });

  it('counts the reader\'s own output once it is used, takes watermarks a reader emits itself, and ends with the final watermark', () => {
    const { output, seen } = readerOutput(WatermarkStrategy.noWatermarks<Event>());
    const split = output.createOutputForSplit('s');
    split.emitWatermark(new Watermark(50));
    expect(seen).toEqual([50]);
    output.collect({ split: 'r', ts: 1 }, 7);
    split.emitWatermark(new Watermark(80));
    // The reader's own output has no watermark yet: it holds the minimum back.
    expect(seen).toEqual([50, 'r@7']);
    output.emitFinalWatermark();
    expect(seen).toEqual([50, 'r@7', Number.POSITIVE_INFINITY]);
  });

  it('fails naming the source when an assigner returns no number', () => {
    const { output } = readerOutput(WatermarkStrategy.forMonotonousTimestamps<Event>().withTimestampAssigner(() => Number.NaN));
    expect(() => output.collect({ split: 'r', ts: 1 })).toThrow(/^Source \(1\/1\) failed: the timestamp assigner returned NaN for a record; it must return the record's event time in milliseconds/);
  });
});
