import { ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, Types, ValueStateDescriptor } from '@weir/api';
import { isWeirError, keyGroupForKey, keyGroupRangeForSubtask } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { KeyContext } from './key-context.ts';
import { HeapKeyedStateBackend } from './heap-keyed-state-backend.ts';

function backend(subtask = 0, parallelism = 1, maxParallelism = 128): HeapKeyedStateBackend {
  const keys = new KeyContext(maxParallelism, keyGroupRangeForSubtask(maxParallelism, parallelism, subtask), 'Count (1/1)');
  return new HeapKeyedStateBackend(keys, 'Count (1/1)');
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return expect.unreachable();
}

describe('keyed heap state', () => {
  it('keeps a value per key, stored under the key group of the key', () => {
    const state = backend();
    const count = state.getState(new ValueStateDescriptor('count', Types.NUMBER, 0));
    for (const key of ['a', 'b', 'a', 7, 'a', 7]) {
      state.keys.setCurrentKey(key);
      count.update(count.value()! + 1);
    }
    const read = (key: unknown): number | undefined => (state.keys.setCurrentKey(key), count.value());
    expect([read('a'), read('b'), read(7), read('zzz')]).toEqual([3, 1, 2, 0]);
    const table = state.table('count')!;
    const group = keyGroupForKey('a', 128);
    expect(table.sizeOfKeyGroup(group)).toBe(['a', 'b', 7].filter((k) => keyGroupForKey(k, 128) === group).length);
    state.keys.setCurrentKey('a');
    count.clear();
    expect(count.value()).toBe(0);
  });

  it('treats equal object keys as one key whatever their field order, and never as the string of their JSON', () => {
    const state = backend();
    const seen = state.getState(new ValueStateDescriptor<string>('seen', Types.STRING));
    state.keys.setCurrentKey({ user: 1, region: 'eu' });
    seen.update('object');
    state.keys.setCurrentKey('{"region":"eu","user":1}');
    expect(seen.value()).toBeUndefined();
    state.keys.setCurrentKey({ region: 'eu', user: 1 });
    expect(seen.value()).toBe('object');
  });

  it('implements list, map and reducing state', () => {
    const state = backend();
    const list = state.getListState(new ListStateDescriptor('list', Types.NUMBER));
    const map = state.getMapState(new MapStateDescriptor('map', Types.GENERIC<{ id: number }>(), Types.STRING));
    const sum = state.getReducingState(new ReducingStateDescriptor('sum', (a: number, b: number) => a + b, Types.NUMBER));
    state.keys.setCurrentKey('k');
    expect([...list.get()]).toEqual([]);
    list.add(1);
    list.addAll([2, 3]);
    expect([...list.get()]).toEqual([1, 2, 3]);
    list.update([9]);
    expect([...list.get()]).toEqual([9]);
    list.update([]);
    expect([...list.get()]).toEqual([]);

    expect(map.isEmpty()).toBe(true);
    map.put({ id: 1 }, 'one');
    map.putAll([[{ id: 2 }, 'two']]);
    expect(map.get({ id: 1 })).toBe('one');
    expect(map.contains({ id: 3 })).toBe(false);
    expect([...map.entries()]).toEqual([
      [{ id: 1 }, 'one'],
      [{ id: 2 }, 'two'],
    ]);
    map.remove({ id: 1 });
    expect([...map.keys()]).toEqual([{ id: 2 }]);
    expect([...map.values()]).toEqual(['two']);
    map.clear();
    expect(map.isEmpty()).toBe(true);

    expect(sum.get()).toBeUndefined();
    sum.add(4);
    sum.add(5);
    expect(sum.get()).toBe(9);
    state.keys.setCurrentKey('other');
    expect(sum.get()).toBeUndefined();
  });

  it('refuses state access without a current key, a key of another subtask, and a name reused with another kind', () => {
    const state = backend(0, 2);
    const value = state.getState(new ValueStateDescriptor('v', Types.NUMBER));
    expect(isWeirError(thrown(() => value.value()), 'STATE_NO_CURRENT_KEY')).toBe(true);
    expect(isWeirError(thrown(() => value.update(1)), 'STATE_NO_CURRENT_KEY')).toBe(true);
    const foreign = Array.from({ length: 100 }, (_, i) => `k${i}`).find((k) => keyGroupForKey(k, 128) >= 64)!;
    const error = thrown(() => state.keys.setCurrentKey(foreign));
    expect(isWeirError(error, 'KEY_GROUP_OUT_OF_RANGE')).toBe(true);
    expect((error as Error).message).toContain(`outside its key groups 0..63`);
    expect(isWeirError(thrown(() => state.getListState(new ListStateDescriptor('v', Types.NUMBER))), 'STATE_DESCRIPTOR_MISMATCH')).toBe(true);
    expect(state.getState(new ValueStateDescriptor('v', Types.NUMBER))).toBe(value);
  });
});
