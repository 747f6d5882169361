import type { LevelStateFile, TaskStateSnapshot } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { captureTaskState, persistTaskState } from '../../checkpoint/snapshot/persist-state.ts';
import { OperatorStateStore } from '../operator-state-store.ts';
import type { LevelKeyedStateBackend } from './level-keyed-state-backend.ts';
import { expected, fill, heapBackend, KEYS, levelHandleOf, levelSettings, LevelTestResources, OPERATOR_ID, read, restoreFrom, restoreInto, snapshot } from './level-test-support.ts';

const resources = new LevelTestResources();
const dir = (prefix: string): string => resources.dir(prefix);
const level = (localStateDir: string, incremental: boolean, writeBufferBytes?: number): Promise<LevelKeyedStateBackend> =>
  resources.backend(localStateDir, 1, 0, incremental, writeBufferBytes);

function filesOf(state: TaskStateSnapshot): readonly LevelStateFile[] {
  return levelHandleOf(state).files;
}

/** The entries of the log files (segments or whole) of a checkpoint. */
function logOf(state: TaskStateSnapshot): LevelStateFile[] {
  return filesOf(state).filter((f) => f.name.endsWith('.log'));
}


describe('incremental LevelDB checkpoints', () => {
  it('upload the log and the MANIFEST as shared segments, each time only what was appended since the confirmed checkpoint, and restore from them', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const backend = await level(local, true);
    fill(backend, KEYS, 0);
    const first = await snapshot(settings, backend, 1);
    // The memtable is not flushed: the state is in the log.
    expect(filesOf(first.state).map((f) => [f.name.replace(/\d+/g, 'N'), f.location, f.offset])).toEqual([
      ['N.log', 'shared', 0],
      ['CURRENT', 'private', undefined],
      ['MANIFEST-N', 'shared', 0],
    ]);
    // Not confirmed yet: checkpoint 2 may not refer to checkpoint 1's uploads.
    const second = await snapshot(settings, backend, 2);
    const firstShared = filesOf(first.state).filter((f) => f.location === 'shared');
    expect(filesOf(second.state).some((f) => firstShared.some((s) => s.path === f.path))).toBe(false);
    backend.notifyCheckpointComplete(2);
    fill(backend, KEYS.slice(0, 3), 1);
    const third = await snapshot(settings, backend, 3);
    const [secondLog] = logOf(second.state);
    const [kept, appended] = logOf(third.state);
    expect(kept).toEqual(secondLog);
    // Each handle names the checkpoint whose uploads it refers to, for the JobManager's deletions.
    expect([first, second, third].map((c) => levelHandleOf(c.state).baseCheckpointId)).toEqual([0, 0, 2]);
    expect(appended).toMatchObject({ name: secondLog!.name, location: 'shared', offset: secondLog!.size });
    // Nothing was appended to the MANIFEST: it is referred to.
    expect(filesOf(third.state).filter((f) => f.name.startsWith('MANIFEST-'))).toEqual(filesOf(second.state).filter((f) => f.name.startsWith('MANIFEST-')));
    const current = filesOf(third.state).find((f) => f.name === 'CURRENT')!;
    // Checkpointed size: what it uploaded; state size: everything it refers to (Flink's two sizes).
    expect(third.checkpointedBytes).toBe(appended!.size + current.size);
    expect(third.stateBytes).toBe(filesOf(third.state).reduce((sum, f) => sum + f.size, 0));
    expect(third.stateBytes).toBeGreaterThan(10 * third.checkpointedBytes);
    expect(second.checkpointedBytes).toBe(second.stateBytes);
    backend.notifyCheckpointComplete(3);
    fill(backend, KEYS.slice(3, 6), 2);
    const fourth = await snapshot(settings, backend, 4);
    // One log over three checkpoints: restored from its three segments.
    expect(logOf(fourth.state).map((f) => f.offset)).toEqual([0, secondLog!.size, secondLog!.size + appended!.size]);
    const restored = await level(local, true);
    await restoreInto(restoreFrom(checkpoints, 4, fourth.state), restored);
    expect(read(restored, KEYS)).toEqual(
      expected([
        [KEYS, 0],
        [KEYS.slice(0, 3), 1],
        [KEYS.slice(3, 6), 2],
      ]),
    );
    // An aborted checkpoint's segment is never referred to.
    backend.notifyCheckpointComplete(4);
    fill(backend, KEYS.slice(6, 9), 3);
    const fifth = await snapshot(settings, backend, 5);
    backend.notifyCheckpointAborted(5);
    const sixth = await snapshot(settings, backend, 6);
    const fifthAppended = logOf(fifth.state).at(-1)!;
    expect(logOf(sixth.state).some((f) => f.path === fifthAppended.path)).toBe(false);
    expect(logOf(sixth.state).slice(0, 3)).toEqual(logOf(fourth.state));
    expect(levelHandleOf(sixth.state).baseCheckpointId).toBe(4);
    // A late completion of an older checkpoint does not move the base back.
    backend.notifyCheckpointComplete(3);
    expect(levelHandleOf((await snapshot(settings, backend, 7)).state).baseCheckpointId).toBe(4);
    // A restored DB builds on the restored checkpoint's files: base 0.
    expect(levelHandleOf((await snapshot(settings, restored, 8)).state).baseCheckpointId).toBe(0);
  });

  it('after a memtable switch, upload the tables the old log went into and the new log from byte 0', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const backend = await level(local, true);
    fill(backend, KEYS, 0);
    const first = await snapshot(settings, backend, 1);
    backend.notifyCheckpointComplete(1);
    fill(backend, KEYS.slice(0, 10), 1);
    await backend.store.flushAll();
    await backend.store.flushMemtable();
    fill(backend, KEYS.slice(10, 20), 2);
    const second = await snapshot(settings, backend, 2);
    const [oldLog] = logOf(first.state);
    const newLog = logOf(second.state);
    expect(newLog.map((f) => [f.name === oldLog!.name, f.offset])).toEqual([[false, 0]]);
    expect(filesOf(second.state).filter((f) => f.name.endsWith('.ldb')).every((f) => f.location === 'shared' && f.offset === undefined)).toBe(true);
    expect(filesOf(second.state).some((f) => f.name.endsWith('.ldb'))).toBe(true);
    const restored = await level(local, true);
    await restoreInto(restoreFrom(checkpoints, 2, second.state), restored);
    expect(read(restored, KEYS)).toEqual(
      expected([
        [KEYS, 0],
        [KEYS.slice(0, 10), 1],
        [KEYS.slice(10, 20), 2],
      ]),
    );
    // The restored DB's shared tables are its baseline; its own log starts afresh.
    const third = await snapshot(settings, restored, 3);
    const secondTables = filesOf(second.state).filter((f) => f.name.endsWith('.ldb'));
    for (const table of filesOf(third.state).filter((f) => f.name.endsWith('.ldb'))) {
      const before = secondTables.find((t) => t.name === table.name);
      if (before !== undefined) expect(table).toEqual(before);
    }
  });

  it.each([true, false])('hold no write made after the synchronous part, also when the cache fills while the checkpoint is written (incremental: %s)', async (incremental) => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, incremental);
    const backend = await level(local, incremental);
    fill(backend, KEYS, 0);
    const states = [{ operatorId: OPERATOR_ID, label: 'Count', keyed: backend, lists: new OperatorStateStore('Count') }];
    const captured = await captureTaskState(states, 1, { type: 'checkpoint' });
    // Records flow again while the batch is written and the files are linked: over a cache's worth of entries starts another batch.
    const many = Array.from({ length: 20_000 }, (_, i) => `more-${i}`);
    fill(backend, many, 5);
    fill(backend, KEYS, 1);
    const { state } = await persistTaskState(settings, 1, 0, captured, { type: 'checkpoint' });
    expect(read(backend, KEYS)).toEqual(expected([[KEYS, 0], [KEYS, 1]]));
    const restored = await level(local, incremental);
    await restoreInto(restoreFrom(checkpoints, 1, state), restored);
    expect(read(restored, KEYS)).toEqual(expected([[KEYS, 0]]));
    expect(read(restored, many.slice(0, 2))).toEqual(read(heapBackend(), many.slice(0, 2)));
  });

  it('restore every checkpoint of a DB whose small memtable is switched and compacted between and during them', async () => {
    const local = dir('local');
    const checkpoints = dir('chk');
    const settings = levelSettings(checkpoints, true);
    const backend = await level(local, true, 64 * 1024);
    const pool = Array.from({ length: 3000 }, (_, i) => `key-${i}`);
    const heap = heapBackend();
    const taken: { checkpointId: number; state: TaskStateSnapshot; expected: unknown[] }[] = [];
    let random = 7;
    const next = (n: number) => (random = (Math.imul(random, 1103515245) + 12345) >>> 0) % n;
    for (let checkpointId = 1; checkpointId <= 12; checkpointId++) {
      const keys = Array.from({ length: 600 + next(600) }, () => pool[next(pool.length)]!);
      fill(backend, keys, checkpointId);
      fill(heap, keys, checkpointId);
      const { state } = await snapshot(settings, backend, checkpointId);
      taken.push({ checkpointId, state, expected: read(heap, pool) });
      // Most are confirmed, some aborted, some left pending (a later confirmation subsumes them).
      const outcome = next(4);
      if (outcome <= 1) backend.notifyCheckpointComplete(checkpointId);
      else if (outcome === 2) backend.notifyCheckpointAborted(checkpointId);
    }
    const segmented = taken.filter((t) => logOf(t.state).length > 1 || filesOf(t.state).some((f) => f.name.startsWith('MANIFEST-') && f.offset! > 0));
    expect(segmented.length).toBeGreaterThan(0);
    for (const { checkpointId, state, expected: want } of taken) {
      const restored = await level(local, true);
      await restoreInto(restoreFrom(checkpoints, checkpointId, state), restored);
      expect(read(restored, pool)).toEqual(want);
      await resources.dispose(restored);
    }
  });
});
