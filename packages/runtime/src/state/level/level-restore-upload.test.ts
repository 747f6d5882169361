import { Types, ValueStateDescriptor } from '@weir/api';
import { describe, expect, it } from 'vitest';
import type { LevelKeyedStateBackend } from './level-keyed-state-backend.ts';
import { levelHandleOf, levelSettings, LevelTestResources, restoreFrom, restoreInto, snapshot } from './level-test-support.ts';

const resources = new LevelTestResources();
const KEYS = 20_000;

/** Writes a fresh 100-character value for `count` keys starting at `from`. */
function update(backend: LevelKeyedStateBackend, from: number, count: number, round: number): void {
  const state = backend.getState(new ValueStateDescriptor('v', Types.STRING, ''));
  for (let i = 0; i < count; i++) {
    backend.keys.setCurrentKey(`k${(from + i * 97) % KEYS}`);
    state.update(`${round}`.padEnd(100, String.fromCharCode(97 + ((i + round) % 26))));
  }
  backend.keys.clearCurrentKey();
}

describe('incremental LevelDB checkpoints after a restore', () => {
  it('refer to the restored tables without uploading them again: what they upload is the restored log replayed into a new table, and what was written since', async () => {
    const local = resources.dir('local');
    const checkpoints = resources.dir('chk');
    const settings = levelSettings(checkpoints, true);
    // A small memtable: the state is in tables, not only in the log.
    const before = await resources.backend(local, 1, 0, true, 256 * 1024);
    // Filled over ten checkpoints (each writes one batch), then 1% changed per checkpoint.
    let last: Awaited<ReturnType<typeof snapshot>> | undefined;
    for (let id = 1; id <= 13; id++) {
      if (id <= 10) update(before, (id - 1) * (KEYS / 10), KEYS / 10, 0);
      else update(before, id * 1_000, KEYS / 100, id);
      last = await snapshot(settings, before, id);
      before.notifyCheckpointComplete(id);
    }
    const restoredTables = new Map(levelHandleOf(last!.state).files.filter((f) => f.name.endsWith('.ldb')).map((f) => [f.name, f.path]));
    expect(restoredTables.size).toBeGreaterThan(0);

    const after = await resources.backend(local, 1, 0, true, 256 * 1024);
    await restoreInto(restoreFrom(checkpoints, 13, last!.state), after);
    update(after, 7, KEYS / 100, 5);
    const next = await snapshot(settings, after, 14);
    const tables = levelHandleOf(next.state).files.filter((f) => f.name.endsWith('.ldb'));
    // Every restored table the DB still has is referred to by the path it was uploaded to.
    const kept = tables.filter((f) => restoredTables.has(f.name));
    expect(kept.length).toBeGreaterThan(0);
    for (const table of kept) expect(table.path).toBe(restoredTables.get(table.name));
    // The full size counts them all; the checkpointed size only the new files.
    const uploaded = levelHandleOf(next.state).files.filter((f) => !restoredTables.has(f.name) && f.location === 'shared');
    expect(next.checkpointedBytes).toBeLessThanOrEqual(uploaded.reduce((sum, f) => sum + f.size, 0) + 64);
    expect(next.stateBytes).toBeGreaterThan(next.checkpointedBytes);
  }, 60_000);
});
