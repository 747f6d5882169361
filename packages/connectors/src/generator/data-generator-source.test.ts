import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { Boundedness, InputStatus } from '@weir/api';
import { SplitSourceHarness } from '@weir/api/testing';
import { DataGeneratorSource } from './data-generator-source.ts';
import { RateLimiterStrategy } from './rate-limiter.ts';
import { readerOutputInto, RecordingReaderOutput } from '@weir/api/testing';

const generator = (count: number, rate = RateLimiterStrategy.noOp()) => new DataGeneratorSource((i) => i, count, rate);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

describe('DataGeneratorSource', () => {
  it.each([
    [10, 1],
    [10, 3],
    [7, 7],
    [3, 5],
    [1000, 4],
    [0, 2],
  ])('splits %i records over %i readers into contiguous ranges covering each index once', async (count, p) => {
    const harness = await SplitSourceHarness.start(generator(count), p);
    const perReader = await harness.pollAll();
    expect(perReader.flat()).toEqual(Array.from({ length: count }, (_, i) => i));
    perReader.forEach((records, i) => {
      expect(records.length).toBe(Math.floor(((i + 1) * count) / p) - Math.floor((i * count) / p));
    });
    expect(harness.source.boundedness).toBe(Boundedness.BOUNDED);
  });

  it('emits generator(index) one per poll and ends on the poll after the last', async () => {
    const harness = await SplitSourceHarness.start(new DataGeneratorSource((i) => `r${i}`, 2, RateLimiterStrategy.noOp()), 1);
    const reader = harness.readers[0]!;
    const out: string[] = [];
    const output = readerOutputInto(out);
    expect([reader.pollNext(output), reader.pollNext(output), reader.pollNext(output)]).toEqual([
      InputStatus.MORE_AVAILABLE,
      InputStatus.MORE_AVAILABLE,
      InputStatus.END_OF_INPUT,
    ]);
    expect(out).toEqual(['r0', 'r1']);
  });

  it('releases the output of a split it was given with nothing left to generate, so that split holds no watermark', async () => {
    const reader = generator(4).createReader({ jobId: 'job', subtaskIndex: 0, parallelism: 1, attemptNumber: 0, sendSplitRequest: () => {} });
    const output = new RecordingReaderOutput<number>();
    reader.addSplits([
      { splitId: 'done', next: 2, end: 2, step: 1 },
      { splitId: 'open', next: 2, end: 4, step: 1 },
    ]);
    await reader.isAvailable();
    expect(reader.pollNext(output)).toBe(InputStatus.MORE_AVAILABLE);
    expect(output.released).toEqual(['done']);
    expect(output.records).toEqual([2]);
  });

  it('strides by the parallelism when unbounded', async () => {
    const harness = await SplitSourceHarness.start(generator(Number.POSITIVE_INFINITY), 3);
    expect(harness.source.boundedness).toBe(Boundedness.CONTINUOUS_UNBOUNDED);
    expect(await harness.poll(1, 4)).toEqual([1, 4, 7, 10]);
  });

  it.each([
    [2, 2],
    [2, 3],
    [3, 1],
    [4, 7],
  ])('restored from %i readers at parallelism %i, emits every index exactly once', async (from, to) => {
    const first = await SplitSourceHarness.start(generator(100), from);
    const before = (await Promise.all(first.readers.map((_, i) => first.poll(i, 5 + i)))).flat();
    const restored = await SplitSourceHarness.start(generator(100), to, first.snapshot());
    const after = (await restored.pollAll()).flat();
    expect(sorted([...before, ...after])).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('restored unbounded at another parallelism, continues every stride where it stopped', async () => {
    const first = await SplitSourceHarness.start(generator(Number.POSITIVE_INFINITY), 2);
    expect([await first.poll(0, 3), await first.poll(1, 2)]).toEqual([
      [0, 2, 4],
      [1, 3],
    ]);
    const restored = await SplitSourceHarness.start(generator(Number.POSITIVE_INFINITY), 3, first.snapshot());
    // Two splits dealt over three readers: the first reader gets none.
    expect(await restored.poll(0, 1)).toEqual([]);
    expect(await restored.poll(1, 4)).toEqual([6, 8, 10, 12]);
    expect(await restored.poll(2, 2)).toEqual([5, 7]);
  });

  it('rejects a restored split that does not fit the generator', async () => {
    const harness = await SplitSourceHarness.start(generator(10), 1);
    try {
      harness.readers[0]!.addSplits([{ splitId: 'range-0', next: 3, end: 20, step: 1 }]);
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_POSITION')).toBe(true);
      expect((err as Error).message).toBe(
        'a DataGeneratorSource split is { splitId, next, end, step } with whole numbers, end <= 10 (the count) and step >= 1, ' +
          'got {"splitId":"range-0","next":3,"end":20,"step":1}; was the checkpoint taken of a generator with another count?',
      );
    }
  });

  it.each([-1, 1.5, Number.NaN, Number.NEGATIVE_INFINITY])('rejects count %s', (count) => {
    try {
      generator(count);
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_ARGUMENT')).toBe(true);
    }
  });

  it('waits for the rate limiter between records', async () => {
    const clock = new ManualClock(1_000);
    // 20 records/s over 2 readers: 10/s each, one every 100 ms, bucket of one.
    const harness = await SplitSourceHarness.start(generator(100, RateLimiterStrategy.perSecond(20, clock)), 2);
    const reader = harness.readers[0]!;
    const out: number[] = [];
    const output = readerOutputInto(out);
    expect(reader.pollNext(output)).toBe(InputStatus.MORE_AVAILABLE);
    expect(reader.pollNext(output)).toBe(InputStatus.NOTHING_AVAILABLE);
    let ready = false;
    void reader.isAvailable().then(() => (ready = true));
    clock.advance(99);
    await Promise.resolve();
    expect(ready).toBe(false);
    expect(reader.pollNext(output)).toBe(InputStatus.NOTHING_AVAILABLE);
    clock.advance(1);
    await Promise.resolve();
    expect(ready).toBe(true);
    expect(reader.pollNext(output)).toBe(InputStatus.MORE_AVAILABLE);
    expect(reader.pollNext(output)).toBe(InputStatus.NOTHING_AVAILABLE);
    expect(out).toEqual([0, 1]);
  });
});
