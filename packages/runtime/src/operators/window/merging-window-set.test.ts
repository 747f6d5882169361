import { EventTimeSessionWindows, TimeWindow, type ValueState } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { MergingWindowSet } from './merging-window-set.ts';

function memoryState(): ValueState<[string, string][]> & { stored: [string, string][] | undefined } {
  return {
    stored: undefined,
    value() {
      return this.stored;
    },
    update(value) {
      this.stored = value;
    },
    clear() {
      this.stored = undefined;
    },
  };
}

const w = (start: number, end: number) => new TimeWindow(start, end);
const show = (window: TimeWindow | undefined) => (window === undefined ? '-' : `[${window.start},${window.end})`);

describe('MergingWindowSet', () => {
  const assigner = EventTimeSessionWindows.withGap(10);

  it('adds windows that touch nothing as their own state windows', () => {
    const set = MergingWindowSet.load(assigner, memoryState());
    const merges: unknown[] = [];
    expect(show(set.addWindow(w(0, 10), (...args) => merges.push(args)))).toBe('[0,10)');
    expect(show(set.addWindow(w(20, 30), (...args) => merges.push(args)))).toBe('[20,30)');
    expect(merges).toEqual([]);
    expect(show(set.getStateWindow(w(20, 30)))).toBe('[20,30)');
  });

  it('merges a window bridging two: the result keeps one state window and is told what to merge into it', () => {
    const state = memoryState();
    const set = MergingWindowSet.load(assigner, state);
    set.addWindow(w(0, 10), () => {});
    set.addWindow(w(15, 25), () => {});
    const merges: string[] = [];
    const result = set.addWindow(w(8, 18), (result, merged, stateWindow, mergedStateWindows) =>
      merges.push(`${show(result)} of ${merged.map(show).join(' ')} into ${show(stateWindow)} from ${mergedStateWindows.map(show).join(' ')}`),
    );
    expect(show(result)).toBe('[0,25)');
    expect(merges).toEqual(['[0,25) of [0,10) [15,25) into [0,10) from [15,25)']);
    expect(show(set.getStateWindow(w(0, 25)))).toBe('[0,10)');
    expect(show(set.getStateWindow(w(0, 10)))).toBe('-');
    set.persist();
    expect(state.stored).toEqual([['0:25', '0:10']]);
    // Loaded again from its state, it is the same set.
    expect(show(MergingWindowSet.load(assigner, state).getStateWindow(w(0, 25)))).toBe('[0,10)');
  });

  it('takes a window inside an existing one without a merge, and forgets retired windows', () => {
    const state = memoryState();
    const set = MergingWindowSet.load(assigner, state);
    set.addWindow(w(0, 30), () => {});
    const merges: unknown[] = [];
    expect(show(set.addWindow(w(5, 15), (...args) => merges.push(args)))).toBe('[0,30)');
    expect(show(set.addWindow(w(0, 30), (...args) => merges.push(args)))).toBe('[0,30)');
    expect(merges).toEqual([]);
    set.retireWindow(w(0, 30));
    set.persist();
    expect(state.stored).toBeUndefined();
  });

  it('grows a window when the new one extends it: the old window\'s state window stays', () => {
    const set = MergingWindowSet.load(assigner, memoryState());
    set.addWindow(w(10, 20), () => {});
    const merges: string[] = [];
    const result = set.addWindow(w(15, 25), (result, merged, stateWindow, mergedStateWindows) =>
      merges.push(`${show(result)} ${merged.map(show).join(' ')} ${show(stateWindow)} [${mergedStateWindows.map(show).join(' ')}]`),
    );
    expect(show(result)).toBe('[10,25)');
    expect(merges).toEqual(['[10,25) [10,20) [10,20) []']);
  });
});
