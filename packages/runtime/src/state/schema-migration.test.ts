import { ListStateDescriptor, MapStateDescriptor, Types, ValueStateDescriptor } from '@weir/api';
import { WeirError } from '@weir/common';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KeyedStateBackend } from './keyed-state-backend.ts';
import { heapBackend, levelBackend, levelSettings, restoreFrom, restoreInto, snapshot, tempDir } from './level/level-test-support.ts';
import type { LevelKeyedStateBackend } from './level/level-keyed-state-backend.ts';

// The ROW/AVRO rules are the api's; here a stand-in that adds 100 to numbers saved as STRING-typed "v1" and refuses BOOLEAN.
vi.mock('@weir/api', async (importOriginal) => {
  const api = await importOriginal<typeof import('@weir/api')>();
  return {
    ...api,
    resolveStateSchema: (name: string, restored: { type: { kind: string } }, current: { type: { kind: string } }) => {
      if (restored.type.kind === current.type.kind) return { kind: 'identical' };
      if (current.type.kind === 'BOOLEAN') throw new WeirError('INCOMPATIBLE_STATE_SCHEMA', `state '${name}' cannot become BOOLEAN`);
      return { kind: 'migrate', migrate: (v: unknown) => (typeof v === 'string' ? Number(v) + 100 : v) };
    },
  };
});

const dirs: string[] = [];
const backends: LevelKeyedStateBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.dispose();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const KEYS = ['a', 'b', 'c'];

/** Old job: state values as strings. */
function writeOld(backend: KeyedStateBackend): void {
  const value = backend.getState(new ValueStateDescriptor('v', Types.STRING));
  const list = backend.getListState(new ListStateDescriptor('l', Types.STRING));
  const map = backend.getMapState(new MapStateDescriptor('m', Types.STRING, Types.STRING));
  for (const [i, key] of KEYS.entries()) {
    backend.keys.setCurrentKey(key);
    value.update(String(i));
    list.addAll([String(i), String(i + 1)]);
    map.put('x', String(i));
  }
}

/** New job: the same states as numbers. */
function readNew(backend: KeyedStateBackend): unknown[] {
  const value = backend.getState(new ValueStateDescriptor('v', Types.NUMBER));
  const list = backend.getListState(new ListStateDescriptor('l', Types.NUMBER));
  const map = backend.getMapState(new MapStateDescriptor('m', Types.STRING, Types.NUMBER));
  return KEYS.map((key) => {
    backend.keys.setCurrentKey(key);
    return [value.value(), [...list.get()], [...map.entries()]];
  });
}

const MIGRATED = [
  [100, [100, 101], [['x', 100]]],
  [101, [101, 102], [['x', 101]]],
  [102, [102, 103], [['x', 102]]],
];

async function checkpointOfOld(kind: 'heap' | 'level', checkpointDir: string, local: string) {
  const settings = levelSettings(checkpointDir, false);
  const old = kind === 'heap' ? heapBackend() : await levelBackend(local);
  if (kind === 'level') backends.push(old as LevelKeyedStateBackend);
  writeOld(old);
  return (await snapshot(kind === 'heap' ? { ...settings, backend: 'filesystem' } : settings, old, 1)).state;
}

describe('schema evolution of restored keyed state', () => {
  it.each(['heap', 'level'] as const)('migrates every stored value when a %s state is registered with a new type, and checkpoints the new type', async (kind) => {
    const checkpointDir = tempDir('chk');
    const local = tempDir('local');
    dirs.push(checkpointDir, local);
    const state = await checkpointOfOld(kind, checkpointDir, local);
    const restored = kind === 'heap' ? heapBackend() : await levelBackend(local);
    if (kind === 'level') backends.push(restored as LevelKeyedStateBackend);
    await restoreInto(restoreFrom(checkpointDir, 1, state), restored);
    expect(readNew(restored)).toEqual(MIGRATED);
    // The next checkpoint holds migrated values under the new description: restoring it migrates nothing more.
    const settings = levelSettings(checkpointDir, false);
    const next = await snapshot(kind === 'heap' ? { ...settings, backend: 'filesystem' } : settings, restored, 2);
    expect(next.state.operators.op1!.keyed![0]!.states.v).toEqual({ kind: 'value', type: { kind: 'NUMBER' } });
    const again = kind === 'heap' ? heapBackend() : await levelBackend(local);
    if (kind === 'level') backends.push(again as LevelKeyedStateBackend);
    await restoreInto(restoreFrom(checkpointDir, 2, next.state), again);
    expect(readNew(again)).toEqual(MIGRATED);
  });

  it.each(['heap', 'level'] as const)('fails registration on the %s backend with the error resolveStateSchema throws', async (kind) => {
    const checkpointDir = tempDir('chk');
    const local = tempDir('local');
    dirs.push(checkpointDir, local);
    const state = await checkpointOfOld(kind, checkpointDir, local);
    const restored = kind === 'heap' ? heapBackend() : await levelBackend(local);
    if (kind === 'level') backends.push(restored as LevelKeyedStateBackend);
    await restoreInto(restoreFrom(checkpointDir, 1, state), restored);
    expect(() => restored.getState(new ValueStateDescriptor('v', Types.BOOLEAN))).toThrow("state 'v' cannot become BOOLEAN");
  });
});
