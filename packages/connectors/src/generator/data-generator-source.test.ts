import { describe, expect, it } from 'vitest';
import { isWeirError, ManualClock } from '@weir/common';
import { Boundedness, InputStatus, type ConnectorContext } from '@weir/api';
import { DataGeneratorSource, type DataGeneratorSourceReader } from './data-generator-source.ts';
import { RateLimiterStrategy } from './rate-limiter.ts';
import { readerOutputInto } from '@weir/api/testing';

const context = (subtaskIndex: number, parallelism: number): ConnectorContext => ({ jobId: 'j', subtaskIndex, parallelism, attemptNumber: 0 });

function drain<T>(reader: DataGeneratorSourceReader<T>, max = Number.POSITIVE_INFINITY): T[] {
  const out: T[] = [];
  const output = readerOutputInto(out);
  while (out.length < max && reader.pollNext(output) === InputStatus.MORE_AVAILABLE);
  return out;
}

describe('DataGeneratorSource', () => {
  it.each([
    [10, 1],
    [10, 3],
    [7, 7],
    [3, 5],
    [1000, 4],
    [0, 2],
  ])('splits %i records over %i readers into contiguous ranges covering each index once', (count, p) => {
    const source = new DataGeneratorSource((i) => i, count, RateLimiterStrategy.noOp());
    const perReader = Array.from({ length: p }, (_, i) => drain(source.createReader(context(i, p))));
    expect(perReader.flat()).toEqual(Array.from({ length: count }, (_, i) => i));
    perReader.forEach((records, i) => {
      expect(records.length).toBe(Math.floor(((i + 1) * count) / p) - Math.floor((i * count) / p));
    });
    expect(source.boundedness).toBe(Boundedness.BOUNDED);
  });

  it('emits generator(index) one per poll and ends on the poll after the last', () => {
    const reader = new DataGeneratorSource((i) => `r${i}`, 2, RateLimiterStrategy.noOp()).createReader(context(0, 1));
    const out: string[] = [];
    const output = readerOutputInto(out);
    expect([reader.pollNext(output), reader.pollNext(output), reader.pollNext(output)]).toEqual([
      InputStatus.MORE_AVAILABLE,
      InputStatus.MORE_AVAILABLE,
      InputStatus.END_OF_INPUT,
    ]);
    expect(out).toEqual(['r0', 'r1']);
  });

  it('strides by the parallelism when unbounded', () => {
    const source = new DataGeneratorSource((i) => i, Number.POSITIVE_INFINITY, RateLimiterStrategy.noOp());
    expect(source.boundedness).toBe(Boundedness.CONTINUOUS_UNBOUNDED);
    expect(drain(source.createReader(context(1, 3)), 4)).toEqual([1, 4, 7, 10]);
  });

  it('snapshots the next index and a restored reader continues exactly there', () => {
    const source = new DataGeneratorSource((i) => i, 10, RateLimiterStrategy.noOp());
    const reader = source.createReader(context(1, 2));
    expect(reader.snapshotState()).toBe(5);
    expect(drain(reader, 2)).toEqual([5, 6]);
    expect(reader.snapshotState()).toBe(7);
    const restored = source.createReader(context(1, 2), [reader.snapshotState()]);
    expect(restored.snapshotState()).toBe(7);
    expect(drain(restored)).toEqual([7, 8, 9]);
    expect(restored.snapshotState()).toBe(10);
    expect(drain(source.createReader(context(1, 2), [restored.snapshotState()]))).toEqual([]);

    const unbounded = new DataGeneratorSource((i) => i, Number.POSITIVE_INFINITY, RateLimiterStrategy.noOp());
    const first = unbounded.createReader(context(1, 3));
    expect(drain(first, 2)).toEqual([1, 4]);
    expect(drain(unbounded.createReader(context(1, 3), [first.snapshotState()]), 2)).toEqual([7, 10]);
  });

  it('rejects a position of another reader and a state that is not a number', () => {
    const source = new DataGeneratorSource((i) => i, 10, RateLimiterStrategy.noOp());
    const bad = (fn: () => unknown): { code: string; message: string } => {
      try {
        fn();
      } catch (err) {
        if (isWeirError(err)) return { code: err.code, message: err.message };
      }
      throw new Error('expected a WeirError');
    };
    expect(bad(() => source.createReader(context(0, 2), [6]))).toEqual({
      code: 'INVALID_POSITION',
      message: 'position 6 is not one of generator reader 0 of 2, which covers [0, 5]',
    });
    expect(bad(() => source.createReader(context(0, 2), [{ next: 1 }])).message).toBe(
      'position {"next":1} is not one of generator reader 0 of 2, which covers [0, 5]',
    );
    expect(bad(() => source.createReader(context(0, 2), [null])).code).toBe('INVALID_POSITION');
    const unbounded = new DataGeneratorSource((i) => i, Number.POSITIVE_INFINITY, RateLimiterStrategy.noOp());
    expect(bad(() => unbounded.createReader(context(1, 3), [6])).message).toBe('position 6 is not one of generator reader 1 of 3, which covers 1, 4, ...');
  });

  it.each([[[]], [[3, 8]]])('rejects a restore from %j reader states: a changed parallelism', (states) => {
    const source = new DataGeneratorSource((i) => i, 10, RateLimiterStrategy.noOp());
    try {
      source.createReader(context(0, 1), states);
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'RESCALE_NOT_SUPPORTED')).toBe(true);
      expect((err as Error).message).toBe(
        `a DataGeneratorSource reader resumes from exactly one reader state, got ${states.length}: ` +
          'changing the parallelism of a DataGeneratorSource restore is not supported yet; restore it at the parallelism of the checkpoint',
      );
    }
  });

  it.each([-1, 1.5, Number.NaN, Number.NEGATIVE_INFINITY])('rejects count %s', (count) => {
    try {
      new DataGeneratorSource((i) => i, count, RateLimiterStrategy.noOp());
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_ARGUMENT')).toBe(true);
    }
  });

  it('waits for the rate limiter between records', async () => {
    const clock = new ManualClock(1_000);
    // 20 records/s over 2 readers: 10/s each, one every 100 ms, bucket of one.
    const source = new DataGeneratorSource((i) => i, 100, RateLimiterStrategy.perSecond(20, clock));
    const reader = source.createReader(context(0, 2));
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
