import { keyGroupForKey, type TaskStateSnapshot } from '@weir/common';
import { describe, expect, it } from 'vitest';
import type { LevelKeyedStateBackend } from './level-keyed-state-backend.ts';
import { changelogOptions, expected, fill, heapBackend, KEYS, levelHandleOf, levelSettings, LevelTestResources, merged, read, restoreFrom, restoreInto, snapshot } from './level-test-support.ts';

const resources = new LevelTestResources();
const dir = (prefix: string): string => resources.dir(prefix);
const changelogBackend = (local: string, checkpoints: string, parallelism = 1, subtask = 0, writeBufferBytes?: number): Promise<LevelKeyedStateBackend> =>
  resources.backend(local, parallelism, subtask, true, writeBufferBytes, changelogOptions(checkpoints));


function segmentsOf(state: TaskStateSnapshot): string[] {
  return (levelHandleOf(state).changelog ?? []).map((f) => f.path);
}

describe('changelog LevelDB checkpoints (state.backend.changelog.enabled)', () => {
  it('upload the changes of the interval, refer to the materialized base, and restore as base + segments, also at another parallelism', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const backend = await changelogBackend(local, checkpoints);
    fill(backend, KEYS, 0);
    const first = await snapshot(settings, backend, 1);
    // Nothing materialized yet: the base is the empty DB, the state is the changelog.
    expect(levelHandleOf(first.state).files).toEqual([]);
    expect(segmentsOf(first.state)).toHaveLength(1);
    backend.notifyCheckpointComplete(1);
    fill(backend, KEYS.slice(0, 3), 1);
    const second = await snapshot(settings, backend, 2);
    const [firstSegment, newSegment] = levelHandleOf(second.state).changelog!;
    expect(firstSegment!.path).toBe(segmentsOf(first.state)[0]);
    // Checkpointed size: the one new segment; state size: everything referred to.
    expect(second.checkpointedBytes).toBe(newSegment!.size);
    expect(second.stateBytes).toBe(firstSegment!.size + newSegment!.size);
    expect(second.checkpointedBytes * 20).toBeLessThan(first.checkpointedBytes);
    backend.notifyCheckpointComplete(2);

    await backend.materializeNow();
    fill(backend, KEYS.slice(3, 6), 2);
    const third = await snapshot(settings, backend, 3);
    const base = levelHandleOf(third.state).files;
    expect(base.length).toBeGreaterThan(0);
    expect(base.every((f) => f.location === 'shared')).toBe(true);
    // The segments the base holds are left out; the first checkpoint on it counts what materializing uploaded.
    expect(segmentsOf(third.state)).toHaveLength(1);
    expect(third.checkpointedBytes).toBe(base.reduce((sum, f) => sum + f.size, 0) + levelHandleOf(third.state).changelog![0]!.size);
    expect(levelHandleOf(third.state).baseCheckpointId).toBe(2);
    backend.notifyCheckpointComplete(3);
    fill(backend, KEYS.slice(6, 9), 3);
    const fourth = await snapshot(settings, backend, 4);
    expect(levelHandleOf(fourth.state).files).toEqual(base);
    expect(segmentsOf(fourth.state).slice(0, 1)).toEqual(segmentsOf(third.state));
    const rounds = [
      [KEYS, 0],
      [KEYS.slice(0, 3), 1],
      [KEYS.slice(3, 6), 2],
      [KEYS.slice(6, 9), 3],
    ] as const;

    const restored = await changelogBackend(local, checkpoints);
    await restoreInto(restoreFrom(checkpoints, 4, fourth.state), restored);
    expect(read(restored, KEYS)).toEqual(expected(rounds));
    // Restored files and segments count as uploaded: the next checkpoint uploads its own change only.
    fill(restored, KEYS.slice(9, 12), 4);
    const fifth = await snapshot(settings, restored, 5);
    expect(levelHandleOf(fifth.state).files).toEqual(base);
    expect(segmentsOf(fifth.state).slice(0, 2)).toEqual(segmentsOf(fourth.state));
    expect(fifth.checkpointedBytes).toBe(levelHandleOf(fifth.state).changelog!.at(-1)!.size);
    expect(levelHandleOf(fifth.state).baseCheckpointId).toBe(0);

    // Rescaled to 2: each subtask replays the segments and keeps its key groups.
    for (const subtask of [0, 1]) {
      const half = await changelogBackend(local, checkpoints, 2, subtask);
      await restoreInto(restoreFrom(checkpoints, 4, merged(fourth.state)), half);
      const own = KEYS.filter((key) => half.keys.range.start <= groupOf(half, key) && groupOf(half, key) <= half.keys.range.end);
      expect(own.length).toBeGreaterThan(0);
      expect(read(half, own)).toEqual(expected(rounds, own));
      // Copied in, not replayed: its checkpoints upload the DB's files until a materialization is confirmed.
      const copied = await snapshot(settings, half, 6, subtask);
      expect(levelHandleOf(copied.state).changelog).toBeUndefined();
      await half.materializeNow();
      const onBase = await snapshot(settings, half, 7, subtask);
      expect(levelHandleOf(onBase.state).changelog).toEqual([]);
      expect(levelHandleOf(onBase.state).files.length).toBeGreaterThan(0);
    }
    // Into the heap backend as well.
    const heap = heapBackend();
    await restoreInto(restoreFrom(checkpoints, 4, fourth.state), heap);
    expect(read(heap, KEYS)).toEqual(expected(rounds));
  });

  it('restore every checkpoint exactly while materializations, a small memtable, and aborted or unconfirmed checkpoints come in between', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const backend = await changelogBackend(local, checkpoints, 1, 0, 64 * 1024);
    const pool = Array.from({ length: 3000 }, (_, i) => `key-${i}`);
    const heap = heapBackend();
    const taken: { checkpointId: number; state: TaskStateSnapshot; expected: unknown[] }[] = [];
    let random = 11;
    const next = (n: number) => (random = (Math.imul(random, 1103515245) + 12345) >>> 0) % n;
    const bases = new Set<string>();
    for (let checkpointId = 1; checkpointId <= 14; checkpointId++) {
      const keys = Array.from({ length: 300 + next(600) }, () => pool[next(pool.length)]!);
      fill(backend, keys, checkpointId);
      fill(heap, keys, checkpointId);
      if (next(3) === 0) {
        // Records flow while it runs.
        const materializing = backend.materializeNow();
        const more = Array.from({ length: 200 }, () => pool[next(pool.length)]!);
        fill(backend, more, 100 + checkpointId);
        fill(heap, more, 100 + checkpointId);
        await materializing;
      }
      const { state } = await snapshot(settings, backend, checkpointId);
      bases.add(JSON.stringify(levelHandleOf(state).files.map((f) => f.path)));
      taken.push({ checkpointId, state, expected: read(heap, pool) });
      const outcome = next(4);
      if (outcome <= 1) backend.notifyCheckpointComplete(checkpointId);
      else if (outcome === 2) backend.notifyCheckpointAborted(checkpointId);
    }
    expect(bases.size).toBeGreaterThan(2);
    for (const { checkpointId, state, expected: want } of taken) {
      const restored = await changelogBackend(local, checkpoints);
      await restoreInto(restoreFrom(checkpoints, checkpointId, state), restored);
      expect(read(restored, pool)).toEqual(want);
      await resources.dispose(restored);
    }
  });
});

function groupOf(backend: LevelKeyedStateBackend, key: string): number {
  return keyGroupForKey(key, backend.keys.maxParallelism);
}
