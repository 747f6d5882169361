import { pathToFileURL } from 'node:url';
import { keyGroupForKey, type LevelKeyedStateHandle } from '@weir/common';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fill, heapBackend, KEYS, levelBackend, levelHandleOf, levelSettings, LevelTestResources, MAX_PARALLELISM, merged, OPERATOR_ID, read, restoreFrom, restoreInto, snapshot, statesOf } from './level-test-support.ts';
import type { LevelKeyedStateBackend } from './level-keyed-state-backend.ts';

const resources = new LevelTestResources();
const dir = (prefix: string): string => resources.dir(prefix);
const level = (localStateDir: string, parallelism = 1, subtask = 0, incremental = false): Promise<LevelKeyedStateBackend> =>
  resources.backend(localStateDir, parallelism, subtask, incremental);

describe('LevelDB keyed state', () => {
  it('keeps value, list, map and reducing state per key, through write batches and the DB', async () => {
    const local = dir('local');
    const backend = await level(local);
    const many = Array.from({ length: 20_000 }, (_, i) => `key-${i}`);
    fill(backend, many, 0);
    fill(backend, many.slice(0, 3), 1);
    await backend.store.flushAll();
    expect(read(backend, ['key-0', 'key-5', 'missing'])).toEqual([
      ['key-0', 2, ['key-0-0', 'key-0-1'], [['r0', 0], ['r1', 1]], 3],
      ['key-5', 1, ['key-5-0'], [['r0', 0]], 1],
      ['missing', 0, [], [], undefined],
    ]);
    const s = statesOf(backend);
    backend.keys.setCurrentKey('key-0');
    s.tags.remove('r0');
    s.seen.clear();
    s.count.clear();
    expect([s.count.value(), [...s.seen.get()], [...s.tags.keys()], s.tags.contains('r1'), s.tags.isEmpty()]).toEqual([0, [], ['r1'], true, false]);
  });

  it("keeps its DB below the local state dir and removes it, and the job's directory once unused, when disposed", async () => {
    const local = dir('local');
    const backend = await levelBackend(local);
    const other = await levelBackend(local, 2, 1);
    expect(backend.directory.startsWith(join(local, 'job1'))).toBe(true);
    expect(existsSync(join(backend.directory, 'db', 'CURRENT'))).toBe(true);
    await backend.dispose();
    expect(existsSync(backend.directory)).toBe(false);
    expect(readdirSync(local)).toEqual(['job1']);
    await other.dispose();
    expect(readdirSync(local)).toEqual([]);
  });

  it('fails with the local dir and the config key when the local state dir cannot hold a DB', async () => {
    const local = dir('local');
    writeFileSync(join(local, 'a-file'), 'x');
    const backend = levelBackend(join(local, 'a-file'));
    await expect(backend).rejects.toMatchObject({
      code: 'LOCAL_STATE_DIR_UNUSABLE',
      message: expect.stringMatching(new RegExp(`local state dir ${join(local, 'a-file')}.*state\\.backend\\.rocksdb\\.localdir`)),
    });
  });

  it('restores a full checkpoint by opening its files, with every file private', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, false);
    const backend = await level(local);
    fill(backend, KEYS, 0);
    const { state } = await snapshot(settings, backend, 1);
    fill(backend, KEYS, 1);
    const handle = levelHandleOf(state);
    expect(handle.backend).toBe('level');
    expect(handle.files.every((f) => f.location === 'private' && f.path.startsWith(`${OPERATOR_ID}-0-level/`))).toBe(true);
    expect(handle.files.map((f) => f.name)).toEqual(expect.arrayContaining(['CURRENT', expect.stringMatching(/^MANIFEST-/), expect.stringMatching(/\.ldb$/)]));
    expect(readdirSync(backend.directory)).toEqual(['db']);
    const restored = await level(local);
    await restoreInto(restoreFrom(checkpoints, 1, state), restored);
    expect(read(restored, KEYS)).toEqual(read(heapFilled(0), KEYS));
  });

  it('fails a restore whose shared file is missing with CHECKPOINT_RESTORE_FAILED naming the file and the checkpoint', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const backend = await level(local, 1, 0, true);
    fill(backend, KEYS, 0);
    const { state } = await snapshot(settings, backend, 7);
    const shared = levelHandleOf(state).files.find((f) => f.location === 'shared')!;
    await rm(join(checkpoints, shared.path));
    const restored = await level(local, 1, 0, true);
    await expect(restoreInto(restoreFrom(checkpoints, 7, state), restored)).rejects.toMatchObject({
      code: 'CHECKPOINT_RESTORE_FAILED',
      message: expect.stringContaining(`from checkpoint 7: its shared file ${shared.path} does not exist`),
    });
  });

  it('fails a restore whose shared file has other bytes of the same size with CHECKPOINT_CORRUPT, from its recorded SHA-256', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const backend = await level(local, 1, 0, true);
    fill(backend, KEYS, 0);
    const { state } = await snapshot(settings, backend, 7);
    const shared = levelHandleOf(state).files.find((f) => f.location === 'shared')!;
    expect(shared.sha256).toMatch(/^[0-9a-f]{64}$/);
    const file = join(checkpoints, shared.path);
    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(file, bytes);
    const restored = await level(local, 1, 0, true);
    await expect(restoreInto(restoreFrom(checkpoints, 7, state), restored)).rejects.toMatchObject({
      code: 'CHECKPOINT_CORRUPT',
      message: expect.stringContaining(
        `from checkpoint 7: its shared file ${shared.path} in ${pathToFileURL(checkpoints).href} has other content than was written (its SHA-256 differs from the one the checkpoint recorded); the checkpoint is corrupt, restore from an earlier one`,
      ),
    });
  });

  it.each([
    [2, 3],
    [3, 1],
  ])('restores at another parallelism (%i -> %i), copying each new subtask key groups out of the overlapping DBs', async (from, to) => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const snapshots = [];
    for (let subtask = 0; subtask < from; subtask++) {
      const backend = await level(local, from, subtask, true);
      const mine = KEYS.filter((k) => owner(k, from) === subtask);
      fill(backend, mine, 0);
      fill(backend, mine.slice(0, 5), 1);
      snapshots.push((await snapshot(settings, backend, 5, subtask)).state);
    }
    const all = merged(...snapshots);
    // Incremental: each DB's log is in the checkpoint as a segment, replayed when the DB opens.
    for (const handle of all.operators[OPERATOR_ID]!.keyed!) expect((handle as LevelKeyedStateHandle).files.some((f) => f.name.endsWith('.log') && f.offset === 0)).toBe(true);
    const expected = heapFilled(0);
    for (let subtask = 0; subtask < from; subtask++) fill(expected, KEYS.filter((k) => owner(k, from) === subtask).slice(0, 5), 1);
    for (let subtask = 0; subtask < to; subtask++) {
      const restored = await level(local, to, subtask, true);
      await restoreInto(restoreFrom(checkpoints, 5, all), restored);
      const mine = KEYS.filter((k) => owner(k, to) === subtask);
      expect(mine.length).toBeGreaterThan(50);
      expect(read(restored, mine)).toEqual(read(expected, mine));
      // Only its own key groups were copied: a savepoint of it holds exactly its keys.
      const { state } = await snapshot(settings, restored, 6, subtask, { type: 'savepoint', targetLocation: join(checkpoints, `sp-${to}-${subtask}`) });
      const heap = heapBackend(to, subtask);
      await restoreInto(restoreFrom(checkpoints, 6, state, `sp-${to}-${subtask}`), heap);
      expect(heap.table('count')!.sizeOfKeyGroup(keyGroupForKey(mine[0]!, MAX_PARALLELISM))).toBeGreaterThan(0);
      let total = 0;
      for (let g = 0; g < MAX_PARALLELISM; g++) total += heap.table('count')!.sizeOfKeyGroup(g);
      expect(total).toBe(mine.length);
    }
  });

  it('writes savepoints in the canonical format, byte for byte what the heap backend writes, into the target directory', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    // One key per key group, so both backends have a single order to write them in.
    const keys: string[] = [];
    const groups = new Set<number>();
    for (const key of KEYS) {
      const group = keyGroupForKey(key, MAX_PARALLELISM);
      if (!groups.has(group)) keys.push(key);
      groups.add(group);
    }
    const backend = await level(local);
    fill(backend, keys, 0);
    const target = join(checkpoints, 'savepoint-1');
    const fromLevel = await snapshot(settings, backend, 9, 0, { type: 'savepoint', targetLocation: target });
    const heap = heapBackend();
    fill(heap, keys, 0);
    const fromHeap = await snapshot({ ...settings, backend: 'filesystem' }, heap, 9, 0, { type: 'savepoint', targetLocation: join(checkpoints, 'savepoint-2') });
    const levelHandle = fromLevel.state.operators[OPERATOR_ID]!.keyed![0]!;
    const heapHandle = fromHeap.state.operators[OPERATOR_ID]!.keyed![0]!;
    expect(levelHandle).toEqual(heapHandle);
    expect(levelHandle).toMatchObject({ backend: 'heap', handle: { kind: 'file', path: `${OPERATOR_ID}-0-keyed` } });
    expect(readFileSync(join(target, `${OPERATOR_ID}-0-keyed`)).equals(readFileSync(join(checkpoints, 'savepoint-2', `${OPERATOR_ID}-0-keyed`)))).toBe(true);
    expect(existsSync(join(checkpoints, 'shared'))).toBe(false);
    // And it restores into either backend.
    const intoLevel = await level(local);
    await restoreInto(restoreFrom(checkpoints, 9, fromLevel.state, 'savepoint-1'), intoLevel);
    expect(read(intoLevel, keys)).toEqual(read(heap, keys));
  });

  it('restores a LevelDB checkpoint into heap state', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const backend = await level(local);
    fill(backend, KEYS, 0);
    const { state } = await snapshot(levelSettings(checkpoints, false), backend, 2);
    const heap = heapBackend(2, 1);
    await restoreInto(restoreFrom(checkpoints, 2, state), heap);
    const mine = KEYS.filter((k) => owner(k, 2) === 1);
    expect(read(heap, mine)).toEqual(read(heapFilled(0), mine));
  });
});

function owner(key: string, parallelism: number): number {
  return Math.floor((keyGroupForKey(key, MAX_PARALLELISM) * parallelism) / MAX_PARALLELISM);
}

function heapFilled(round: number) {
  const heap = heapBackend();
  fill(heap, KEYS, round);
  return heap;
}
