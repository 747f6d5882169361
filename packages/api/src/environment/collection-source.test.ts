import { describe, expect, it } from 'vitest';
import { InputStatus } from '../connector/types.ts';
import { CollectionSource, type CollectionSourceReader } from './collection-source.ts';

function drain<T>(reader: CollectionSourceReader<T>): T[] {
  const out: T[] = [];
  const output = { collect: (r: T) => out.push(r) };
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
    const output = { collect: (r: number) => out.push(r) };
    expect([reader.pollNext(output), reader.pollNext(output), reader.pollNext(output)]).toEqual([
      InputStatus.MORE_AVAILABLE,
      InputStatus.MORE_AVAILABLE,
      InputStatus.END_OF_INPUT,
    ]);
    expect(out).toEqual([1, 2]);
  });

  it('restores a reader at a snapshotted position', () => {
    const source = new CollectionSource([1, 2, 3, 4]);
    const reader = source.createReader(context(1, 2));
    reader.pollNext({ collect: () => {} });
    expect(reader.snapshotPosition()).toBe(3);
    expect(drain(source.restoreReader(context(1, 2), reader.snapshotPosition()))).toEqual([4]);
  });
});
