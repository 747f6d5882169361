import { describe, expect, it } from 'vitest';
import { errorOf } from '../testing/fixtures.ts';
import { SplitSourceHarness } from '../testing/split-source-harness.ts';
import { CollectionSource } from './collection-source.ts';

describe('CollectionSource', () => {
  it('splits the items into contiguous slices, one per subtask', async () => {
    const three = await SplitSourceHarness.start(new CollectionSource(['a', 'b', 'c', 'd', 'e']), 3);
    expect(await three.pollAll()).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    const seven = await SplitSourceHarness.start(new CollectionSource(['a', 'b', 'c', 'd', 'e']), 7);
    expect((await seven.pollAll()).map((out) => out.length)).toEqual([0, 1, 1, 0, 1, 1, 1]);
  });

  it('restores at the same or another parallelism with every item exactly once', async () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    for (const [from, to] of [
      [2, 2],
      [2, 3],
      [3, 1],
    ] as const) {
      const first = await SplitSourceHarness.start(new CollectionSource(items), from);
      const before = (await Promise.all(first.readers.map((_, i) => first.poll(i, 3)))).flat();
      const restored = await SplitSourceHarness.start(new CollectionSource(items), to, first.snapshot());
      const after = (await restored.pollAll()).flat();
      expect([...before, ...after].sort((a, b) => a - b)).toEqual(items);
    }
  });

  it('rejects a restored split that does not fit the collection', async () => {
    const harness = await SplitSourceHarness.start(new CollectionSource([1, 2, 3, 4]), 1);
    expect(errorOf(() => harness.readers[0]!.addSplits([{ splitId: '0', next: 3, end: 9 }]))).toEqual({
      code: 'INVALID_SOURCE_STATE',
      message: 'a collection source split is { splitId, next, end } with 0 <= next <= end <= 4 (the number of items), got {"splitId":"0","next":3,"end":9}',
    });
  });
});
