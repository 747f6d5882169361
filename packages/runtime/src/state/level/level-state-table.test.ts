import { ListStateDescriptor, Types, ValueStateDescriptor } from '@weir/api';
import { keyGroupForKey } from '@weir/common';
import { describe, expect, it, vi } from 'vitest';
import type { LevelKeyedStateBackend } from './level-keyed-state-backend.ts';
import { fill, KEYS, levelSettings, MAX_PARALLELISM, LevelTestResources, merged, read, restoreFrom, restoreInto, snapshot, statesOf } from './level-test-support.ts';

const resources = new LevelTestResources();

function countAndSeen(backend: LevelKeyedStateBackend) {
  return {
    count: backend.getState(new ValueStateDescriptor('count', Types.NUMBER)),
    seen: backend.getListState(new ListStateDescriptor('seen', Types.STRING)),
  };
}

describe('LevelStateTable', () => {
  it('reads no key of a new DB from LevelDB that its caches do not hold: it knows the DB has only what they wrote', async () => {
    const backend = await resources.backend(resources.dir('local'));
    const { count, seen } = countAndSeen(backend);
    const reads = vi.spyOn(backend.store, 'stored');
    const keys = Array.from({ length: 1000 }, (_, i) => i);
    for (const key of keys) {
      backend.keys.setCurrentKey(key);
      count.update((count.value() ?? 0) + 1);
      seen.add(`s${key}`);
    }
    await backend.store.flushAll();
    expect(reads).not.toHaveBeenCalled();
    // Counts are clean primitives, missing keys are missing; a list the batch wrote is read back from the DB.
    const got = [0, 999, 1000, -5].map((key) => {
      backend.keys.setCurrentKey(key);
      return [count.value(), [...seen.get()]];
    });
    expect(got).toEqual([
      [1, ['s0']],
      [1, ['s999']],
      [undefined, []],
      [undefined, []],
    ]);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('reads keys from LevelDB once it dropped clean entries of a state, as many keys fill its cache', async () => {
    const backend = await resources.backend(resources.dir('local'));
    const { count } = countAndSeen(backend);
    // More keys than a state keeps clean entries of (128k and 8k of slack): the first batch's written() evicts.
    const keys = 140_000;
    for (let key = 0; key < keys; key++) {
      backend.keys.setCurrentKey(key);
      count.update(key + 1);
    }
    await backend.store.flushAll();
    const reads = vi.spyOn(backend.store, 'stored');
    let sum = 0;
    for (let key = 0; key < keys; key++) {
      backend.keys.setCurrentKey(key);
      sum += count.value() ?? 0;
    }
    expect(sum).toBe((keys * (keys + 1)) / 2);
    expect(reads.mock.calls.length).toBeGreaterThan(0);
  });

  it.each([
    ['opening the checkpoint’s files', 1],
    ['copying entries (another parallelism)', 2],
  ])('reads the restored values through a state made before the restore (%s)', async (_, parallelism) => {
    const local = resources.dir('local');
    const checkpoints = resources.dir('chk');
    const settings = levelSettings(checkpoints, false);
    const snapshots = [];
    for (let subtask = 0; subtask < parallelism; subtask++) {
      const backend = await resources.backend(local, parallelism, subtask);
      fill(backend, KEYS.filter((key) => inRange(backend, key)), 0);
      snapshots.push((await snapshot(settings, backend, 3, subtask)).state);
    }
    const restored = await resources.backend(local);
    const before = statesOf(restored);
    restored.keys.setCurrentKey(KEYS[0]);
    expect(before.count.value()).toBe(0);
    await restoreInto(restoreFrom(checkpoints, 3, merged(...snapshots)), restored);
    expect(read(restored, KEYS.slice(0, 3))).toEqual([
      ['k0', 1, ['k0-0'], [['r0', 0]], 1],
      ['k1', 1, ['k1-0'], [['r0', 0]], 1],
      ['k2', 1, ['k2-0'], [['r0', 0]], 1],
    ]);
  });
});

function inRange(backend: LevelKeyedStateBackend, key: string): boolean {
  const group = keyGroupForKey(key, MAX_PARALLELISM);
  return group >= backend.keys.range.start && group <= backend.keys.range.end;
}
