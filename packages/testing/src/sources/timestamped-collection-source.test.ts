import { describe, expect, it } from 'vitest';
import { InputStatus, type ReaderOutput, type Watermark } from '@weir/api';
import { TimestampedCollectionSource } from './timestamped-collection-source.ts';

/** Reads a reader to its end: records with timestamps and watermarks, in order. */
function drain(source: TimestampedCollectionSource<string>, subtaskIndex = 0, restored?: unknown[]): unknown[] {
  const reader = source.createReader({ jobId: 'job', subtaskIndex, parallelism: 2, attemptNumber: 0 }, restored);
  const seen: unknown[] = [];
  const output = {
    collect: (value: string, timestamp?: number) => seen.push([value, timestamp]),
    emitWatermark: (w: Watermark) => seen.push(`wm ${w.timestamp}`),
  } as unknown as ReaderOutput<string>;
  let status: InputStatus = InputStatus.MORE_AVAILABLE;
  while (status === InputStatus.MORE_AVAILABLE) status = reader.pollNext(output);
  return seen;
}

describe('TimestampedCollectionSource', () => {
  const source = new TimestampedCollectionSource([{ value: 'a', timestamp: 5 }, { watermark: 4 }, { value: 'b', timestamp: 3 }, { watermark: 10 }]);

  it('emits records with their timestamps and watermarks where they were placed, from the first subtask only', () => {
    expect(drain(source)).toEqual([['a', 5], 'wm 4', ['b', 3], 'wm 10']);
    expect(drain(source, 1)).toEqual([]);
  });

  it('resumes at the restored position', () => {
    expect(drain(source, 0, [2])).toEqual([['b', 3], 'wm 10']);
  });

  it('ascending() puts a watermark after each record', () => {
    expect(drain(TimestampedCollectionSource.ascending([['x', 1], ['y', 2]]))).toEqual([['x', 1], 'wm 1', ['y', 2], 'wm 2']);
  });

  it('refuses an element that is neither a record nor a watermark', () => {
    expect(() => new TimestampedCollectionSource([{ value: 'a' } as never])).toThrow(expect.objectContaining({ code: 'INVALID_ELEMENT' }));
  });
});
