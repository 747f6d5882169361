import {
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  StateTtlConfig,
  Types,
  ValueStateDescriptor,
  type StateDescriptor,
} from '@weir/api';
import { ManualClock } from '@weir/common/testing';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { readKeyedState } from '../checkpoint/restore/read-keyed-state.ts';
import { HeapKeyedStateBackend } from './heap-keyed-state-backend.ts';
import type { KeyedStateBackend } from './keyed-state-backend.ts';
import { keyContext, levelSettings, MAX_PARALLELISM, OPERATOR_ID, restoreFrom, restoreInto, snapshot, tempDir } from './level/level-test-support.ts';
import { LevelKeyedStateBackend } from './level/level-keyed-state-backend.ts';

const TTL = 1_000;

function ttl(build: (b: ReturnType<typeof StateTtlConfig.newBuilder>) => ReturnType<typeof StateTtlConfig.newBuilder> = (b) => b): StateTtlConfig {
  return build(StateTtlConfig.newBuilder(TTL)).build();
}

function withTtl<D extends StateDescriptor<unknown>>(descriptor: D, config = ttl()): D {
  descriptor.enableTimeToLive(config);
  return descriptor;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function backends(clock: ManualClock): Promise<[string, KeyedStateBackend][]> {
  const local = tempDir('ttl-local');
  dirs.push(local);
  const level = new LevelKeyedStateBackend({ keys: keyContext(1, 0), label: 'Op', localStateDir: local, jobId: 'j', operatorId: OPERATOR_ID, subtaskIndex: 0, incremental: false, work: undefined, clock });
  await level.open();
  return [
    ['heap', new HeapKeyedStateBackend(keyContext(1, 0), 'Op', clock)],
    ['level', level],
  ];
}

describe('state TTL', () => {
  it.each(['heap', 'level'])('%s: a value expires ttl after its last write and reads as its default; writes start it again', async (kind) => {
    const clock = new ManualClock(10_000);
    const backend = new Map(await backends(clock)).get(kind)!;
    const state = backend.getState(withTtl(new ValueStateDescriptor('v', Types.NUMBER, -1)));
    backend.keys.setCurrentKey('k');
    state.update(1);
    clock.advance(999);
    expect(state.value()).toBe(1);
    state.update(2);
    clock.advance(999);
    expect(state.value()).toBe(2);
    clock.advance(1);
    expect(state.value()).toBe(-1);
    // Cleaned up on read: writing nothing, it stays gone.
    expect(state.value()).toBe(-1);
    await backend.dispose();
  });

  it('OnReadAndWrite: reading starts the time to live again; ReturnExpiredIfNotCleanedUp returns the expired value once', async () => {
    const clock = new ManualClock(0);
    const backend = new HeapKeyedStateBackend(keyContext(1, 0), 'Op', clock);
    const onRead = backend.getState(withTtl(new ValueStateDescriptor('r', Types.STRING), ttl((b) => b.updateTtlOnReadAndWrite())));
    const lenient = backend.getState(withTtl(new ValueStateDescriptor('l', Types.STRING), ttl((b) => b.returnExpiredIfNotCleanedUp())));
    backend.keys.setCurrentKey('k');
    onRead.update('x');
    lenient.update('y');
    clock.advance(800);
    expect(onRead.value()).toBe('x');
    clock.advance(800);
    expect(onRead.value()).toBe('x');
    expect(lenient.value()).toBe('y');
    expect(lenient.value()).toBeUndefined();
  });

  it('lists and maps expire element by element; reducing state restarts from an expired value', async () => {
    const clock = new ManualClock(0);
    const backend = new HeapKeyedStateBackend(keyContext(1, 0), 'Op', clock);
    const list = backend.getListState(withTtl(new ListStateDescriptor('list', Types.STRING)));
    const map = backend.getMapState(withTtl(new MapStateDescriptor('map', Types.STRING, Types.NUMBER)));
    const sum = backend.getReducingState(withTtl(new ReducingStateDescriptor('sum', (a: number, b: number) => a + b, Types.NUMBER)));
    backend.keys.setCurrentKey('k');
    list.add('old');
    map.put('old', 1);
    sum.add(5);
    clock.advance(600);
    list.add('new');
    map.put('new', 2);
    expect([...list.get()]).toEqual(['old', 'new']);
    clock.advance(400);
    expect([...list.get()]).toEqual(['new']);
    expect([...map.entries()]).toEqual([['new', 2]]);
    expect(map.contains('old')).toBe(false);
    sum.add(1);
    expect(sum.get()).toBe(1);
    clock.advance(1_000);
    expect([...list.get()]).toEqual([]);
    expect(map.isEmpty()).toBe(true);
    expect(backend.entryCounts()).toEqual({ list: 0, map: 0, sum: 1 });
  });

  it.each([
    ['heap checkpoint', 'heap', 'checkpoint'],
    ['heap savepoint', 'heap', 'savepoint'],
    ['LevelDB savepoint', 'level', 'savepoint'],
  ] as const)('cleanupFullSnapshot leaves what expired out of a %s; without it, the expired value is kept', async (_name, kind, type) => {
    const clock = new ManualClock(0);
    const backend = new Map(await backends(clock)).get(kind)!;
    const cleaned = backend.getState(withTtl(new ValueStateDescriptor('cleaned', Types.NUMBER), ttl((b) => b.cleanupFullSnapshot())));
    const kept = backend.getState(withTtl(new ValueStateDescriptor('kept', Types.NUMBER)));
    const list = backend.getListState(withTtl(new ListStateDescriptor('list', Types.NUMBER), ttl((b) => b.cleanupFullSnapshot())));
    for (const key of ['a', 'b']) {
      backend.keys.setCurrentKey(key);
      cleaned.update(1);
      kept.update(1);
      list.add(1);
    }
    clock.advance(500);
    backend.keys.setCurrentKey('b');
    cleaned.update(2);
    list.add(2);
    clock.advance(600);
    backend.keys.clearCurrentKey();
    const checkpointDir = tempDir('ttl-chk');
    dirs.push(checkpointDir);
    const settings = levelSettings(checkpointDir, false);
    const options = type === 'savepoint' ? { type, targetLocation: `${checkpointDir}/sp` } : ({ type } as const);
    const { state } = await snapshot(settings, backend, 1, 0, options);
    const read = await readKeyedState(restoreFrom(checkpointDir, 1, state, type === 'savepoint' ? 'sp' : 'chk-1'), OPERATOR_ID, MAX_PARALLELISM);
    expect([...read.get('cleaned')!.values()]).toEqual([[2, 500]]);
    expect(read.get('kept')!.size).toBe(2);
    expect([...read.get('list')!.values()]).toEqual([[[2, 500]]]);
    // Restored, the cleaned state reads the same as before.
    const restored = new HeapKeyedStateBackend(keyContext(1, 0), 'Op', clock);
    await restoreInto(restoreFrom(checkpointDir, 1, state, type === 'savepoint' ? 'sp' : 'chk-1'), restored);
    const again = restored.getState(withTtl(new ValueStateDescriptor('cleaned', Types.NUMBER), ttl((b) => b.cleanupFullSnapshot())));
    restored.keys.setCurrentKey('b');
    expect(again.value()).toBe(2);
    restored.keys.setCurrentKey('a');
    expect(again.value()).toBeUndefined();
    await backend.dispose();
  });

  it('refuses to restore a state with TTL turned on or off', async () => {
    const clock = new ManualClock(0);
    const backend = new HeapKeyedStateBackend(keyContext(1, 0), 'Op', clock);
    const plain = backend.getState(new ValueStateDescriptor('v', Types.NUMBER));
    backend.keys.setCurrentKey('k');
    plain.update(1);
    backend.keys.clearCurrentKey();
    const checkpointDir = tempDir('ttl-switch');
    dirs.push(checkpointDir);
    const { state } = await snapshot(levelSettings(checkpointDir, false), backend, 1);
    const restored = new HeapKeyedStateBackend(keyContext(1, 0), 'Op', clock);
    await restoreInto(restoreFrom(checkpointDir, 1, state), restored);
    expect(() => restored.getState(withTtl(new ValueStateDescriptor('v', Types.NUMBER)))).toThrow(
      "Op registers state 'v' with a time to live, but the checkpoint holds it without one; turning TTL on or off for an existing state is not supported",
    );
  });
});
