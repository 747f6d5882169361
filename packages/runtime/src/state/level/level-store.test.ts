import { Types, ValueStateDescriptor } from '@weir/api';
import { ManualClock } from '@weir/common/testing';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { keyGroupBounds } from './level-key.ts';
import { LevelKeyedStateBackend } from './level-keyed-state-backend.ts';
import { LevelStateTable } from './level-state-table.ts';
import { LevelStore } from './level-store.ts';
import { keyContext, OPERATOR_ID, tempDir } from './level-test-support.ts';

const open: LevelKeyedStateBackend[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const backend of open.splice(0)) await backend.dispose();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function backendWith(clock: ManualClock): Promise<LevelKeyedStateBackend> {
  const local = tempDir('store');
  dirs.push(local);
  const backend = new LevelKeyedStateBackend({ keys: keyContext(1, 0), label: 'Op', localStateDir: local, jobId: 'j', operatorId: OPERATOR_ID, subtaskIndex: 0, incremental: true, work: undefined, clock });
  await backend.open();
  open.push(backend);
  return backend;
}

/** Entries the DB itself holds (not the write cache). */
async function inDatabase(backend: LevelKeyedStateBackend): Promise<number> {
  const { gte, lt } = keyGroupBounds(backend.keys.range);
  const cursor = backend.store.cursor(gte, lt);
  try {
    return (await cursor.nextv(100_000)).length;
  } finally {
    await cursor.close();
  }
}

describe('LevelStore', () => {
  it('writes the dirty entries in the background once the task wrote no state for a while, and keeps them while it writes', async () => {
    const clock = new ManualClock(0);
    const backend = await backendWith(clock);
    const count = backend.getState(new ValueStateDescriptor('count', Types.NUMBER, 0));
    const write = (keys: number) => {
      for (let key = 0; key < keys; key++) {
        backend.keys.setCurrentKey(key);
        count.update(count.value()! + 1);
      }
    };
    // A busy task: hot keys written again within every 20 ms stay in the cache.
    for (let tick = 0; tick < 10; tick++) {
      write(10);
      clock.advance(10);
    }
    await backend.store.settled();
    expect(await inDatabase(backend)).toBe(0);
    // Then quiet: the next look finds no write since the last and writes the batch.
    clock.advance(40);
    await backend.store.settled();
    expect(await inDatabase(backend)).toBe(10);
    backend.keys.setCurrentKey(3);
    expect(count.value()).toBe(10);
  });

  it("takes a checkpoint's dirty entries at once and encodes them into the batch later, while reads and writes go on", async () => {
    const local = tempDir('store');
    dirs.push(local);
    // Every entry put into a batch, as the changelog would get it.
    const encoded: Buffer[] = [];
    const store = new LevelStore({ directory: join(local, 'db'), label: 'Op', work: undefined, clock: new ManualClock(0), changelog: { put: (key) => encoded.push(key), del: () => undefined } });
    await store.open();
    const keys = keyContext(1, 0);
    const table = new LevelStateTable('count', 'value', keys, store);
    for (let key = 0; key < 10_000; key++) {
      keys.setCurrentKey(key);
      table.put(key);
    }
    const inBatch = store.writeDirtyThen(async () => encoded.length);
    // The synchronous part encoded nothing: 10k entries would have held the task ~20 ms.
    expect(encoded).toHaveLength(0);
    // Records after the barrier: they read the frozen values, and what they write is not the checkpoint's.
    keys.setCurrentKey(5);
    expect(table.get()).toBe(5);
    table.put(-5);
    expect(await inBatch).toBe(10_000);
    expect(table.get()).toBe(-5);
    keys.setCurrentKey(6);
    expect(table.get()).toBe(6);
    await store.close();
  });
});
