import { describe, expect, it } from 'vitest';
import { InputStatus } from '../connector/types.ts';
import { errorOf } from '../testing/fixtures.ts';
import { CollectionSource, type CollectionSourceReader } from './collection-source.ts';
import { readerOutputInto } from '../testing/reader-output.ts';

function drain<T>(reader: CollectionSourceReader<T>): T[] {
  const out: T[] = [];
  const output = readerOutputInto(out);
  while (reader.pollNext(output) !== InputStatus.END_OF_INPUT);
  return out;
}

const context = (subtaskIndex: number, parallelism: number) => ({ jobId: 'j', subtaskIndex, parallelism, attemptNumber: 0 });

describe('CollectionSource', () => {
  it('splits the items into contiguous slices, one per subtask', () => {
    const source = new CollectionSource(['a', 'b', 'c', 'd', 'e']);
    expect([0, 1, 2].map((i) => drain(source.createReader(context(i, 3))))).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => drain(source.createReader(context(i, 7))).length)).toEqual([0, 1, 1, 0, 1, 1, 1]);
  });

  it('emits one item per poll and reports the end on the poll after the last', () => {
    const reader = new CollectionSource([1, 2]).createReader(context(0, 1));
    const out: number[] = [];
    const output = readerOutputInto(out);
    expect([reader.pollNext(output), reader.pollNext(output), reader.pollNext(output)]).toEqual([
      InputStatus.MORE_AVAILABLE,
      InputStatus.MORE_AVAILABLE,
      InputStatus.END_OF_INPUT,
    ]);
    expect(out).toEqual([1, 2]);
  });

  it('snapshots the next index and a restored reader continues exactly there', () => {
    const source = new CollectionSource([1, 2, 3, 4]);
    const reader = source.createReader(context(1, 2));
    expect(reader.snapshotState()).toBe(2);
    reader.pollNext(readerOutputInto([]));
    expect(reader.snapshotState()).toBe(3);
    expect(drain(source.createReader(context(1, 2), [reader.snapshotState()]))).toEqual([4]);
    expect(drain(source.createReader(context(1, 2), [4]))).toEqual([]);
  });

  it('rejects a position outside its slice and a restore from several readers', () => {
    const source = new CollectionSource([1, 2, 3, 4]);
    expect(errorOf(() => source.createReader(context(0, 2), [3]))).toEqual({
      code: 'INVALID_SOURCE_STATE',
      message: 'position 3 is not one of collection source reader 0 of 2, which covers [0, 2]',
    });
    expect(errorOf(() => source.createReader(context(0, 2), ['1'])).code).toBe('INVALID_SOURCE_STATE');
    expect(errorOf(() => source.createReader(context(0, 1), [0, 2]))).toEqual({
      code: 'INVALID_SOURCE_STATE',
      message:
        'a collection source reader resumes from exactly one reader state, got 2: changing the parallelism of a fromElements/fromCollection source ' +
        'across a restore is not supported yet; restore it at the parallelism of the checkpoint',
    });
  });
});
