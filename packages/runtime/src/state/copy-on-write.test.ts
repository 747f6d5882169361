import { ListStateDescriptor, MapStateDescriptor, Types, ValueStateDescriptor } from '@weir/api';
import { keyGroupForKey, keyGroupRangeForSubtask, type KeyedStateHandle } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { restoreOperatorState } from '../checkpoint/restore/restore-operator-state.ts';
import { serializeKeyedState } from '../checkpoint/snapshot/keyed-state-serializer.ts';
import { KeyContext } from './key-context.ts';
import { HeapKeyedStateBackend } from './heap-keyed-state-backend.ts';
import { OperatorStateStore } from './operator-state-store.ts';

const MAX_PARALLELISM = 128;

function backend(parallelism = 1, subtask = 0): HeapKeyedStateBackend {
  const range = keyGroupRangeForSubtask(MAX_PARALLELISM, parallelism, subtask);
  return new HeapKeyedStateBackend(new KeyContext(MAX_PARALLELISM, range, 'Count (1/1)'), 'Count (1/1)');
}

const KEYS = Array.from({ length: 200 }, (_, i) => `k${i}`);

function filled() {
  const b = backend();
  const count = b.getState(new ValueStateDescriptor('count', Types.NUMBER));
  const seen = b.getListState(new ListStateDescriptor('seen', Types.STRING));
  const tags = b.getMapState(new MapStateDescriptor('tags', Types.STRING, Types.NUMBER));
  KEYS.forEach((key, i) => {
    b.keys.setCurrentKey(key);
    count.update(i);
    seen.add(`${key}-a`);
    tags.put('t', i);
  });
  return { b, count, seen, tags, at: (key: string) => b.keys.setCurrentKey(key) };
}

function copies(b: HeapKeyedStateBackend): number[] {
  return ['count', 'seen', 'tags'].map((n) => b.table(n)!.copies);
}

/** Another key in the same key group as `key`, and one in a different group. */
function neighbours(key: string): { same: string; other: string } {
  const group = keyGroupForKey(key, MAX_PARALLELISM);
  const same = KEYS.find((k) => k !== key && keyGroupForKey(k, MAX_PARALLELISM) === group)!;
  const other = KEYS.find((k) => keyGroupForKey(k, MAX_PARALLELISM) !== group)!;
  return { same, other };
}

describe('copy-on-write keyed state snapshots', () => {
  it('writes exactly the state of the synchronous part, whatever changes after it', async () => {
    const reference = filled();
    const expected = await serializeKeyedState(reference.b.snapshot());

    const live = filled();
    const snapshot = live.b.snapshot();
    live.at('k1');
    live.count.update(1000);
    live.seen.add('k1-b');
    live.tags.put('u', 7);
    live.at('k2');
    live.count.clear();
    live.seen.update(['replaced']);
    live.tags.remove('t');
    live.at('new-key');
    live.count.update(5);
    const written = await serializeKeyedState(snapshot);

    expect(Buffer.from(written.bytes).equals(Buffer.from(expected.bytes))).toBe(true);
    expect(written.offsets).toEqual(expected.offsets);
    expect(written.states).toEqual({
      count: { kind: 'value', type: { kind: 'NUMBER' } },
      seen: { kind: 'list', type: { kind: 'STRING' } },
      tags: { kind: 'map', type: { kind: 'NUMBER' }, keyType: { kind: 'STRING' } },
    });
    live.at('k1');
    expect([live.count.value(), [...live.seen.get()], live.tags.get('u')]).toEqual([1000, ['k1-a', 'k1-b'], 7]);
  });

  it('does not copy state in the synchronous part, and copies a group or container once on its first change after it', async () => {
    const { b, count, seen, tags, at } = filled();
    expect(copies(b)).toEqual([0, 0, 0]);
    const snapshot = b.snapshot();
    expect(copies(b)).toEqual([0, 0, 0]);
    expect(snapshot.states.map((s) => s.name)).toEqual(['count', 'seen', 'tags']);

    const { same, other } = neighbours('k1');
    at('k1');
    count.update(-1);
    count.update(-2);
    at(same);
    count.update(-3);
    expect(copies(b)).toEqual([1, 0, 0]);
    at(other);
    count.update(-4);
    expect(copies(b)).toEqual([2, 0, 0]);

    at('k1');
    seen.add('x');
    seen.add('y');
    tags.put('u', 1);
    tags.put('v', 2);
    // One group Map and one container each.
    expect(copies(b)).toEqual([2, 2, 2]);

    await serializeKeyedState(snapshot);
    b.snapshot();
    at('k1');
    count.update(-5);
    expect(copies(b)).toEqual([3, 2, 2]);
  });

  it('never copies without snapshots', () => {
    const { b, count, seen, at } = filled();
    for (const key of KEYS) {
      at(key);
      count.update(1);
      seen.add('again');
    }
    expect(copies(b)).toEqual([0, 0, 0]);
  });

  it('restores the key groups of a subtask from a snapshot written at another parallelism', async () => {
    const { b } = filled();
    const serialized = await serializeKeyedState(b.snapshot());
    const handle: KeyedStateHandle = {
      backend: 'heap',
      keyGroupRange: { start: 0, end: MAX_PARALLELISM - 1 },
      offsets: serialized.offsets,
      handle: { kind: 'inline', data: Buffer.from(serialized.bytes).toString('base64'), size: serialized.bytes.byteLength },
      states: serialized.states,
    };
    const restored = backend(2, 1);
    await restoreOperatorState(
      { checkpointId: 3, state: { operators: { op: { keyed: [handle] } } }, storage: undefined, jobStorage: undefined },
      { operatorId: 'op', label: 'Count (2/2)', keyed: restored, lists: new OperatorStateStore('Count (2/2)') },
    );
    const count = restored.getState(new ValueStateDescriptor('count', Types.NUMBER));
    const seen = restored.getListState(new ListStateDescriptor('seen', Types.STRING));
    const tags = restored.getMapState(new MapStateDescriptor('tags', Types.STRING, Types.NUMBER));
    const mine = KEYS.filter((k) => keyGroupForKey(k, MAX_PARALLELISM) >= 64);
    expect(mine.length).toBeGreaterThan(50);
    for (const key of mine) {
      restored.keys.setCurrentKey(key);
      const i = Number(key.slice(1));
      expect([count.value(), [...seen.get()], [...tags.entries()]]).toEqual([i, [`${key}-a`], [['t', i]]]);
    }
    const groups = restored.table('count')!;
    let total = 0;
    for (let g = 64; g < 128; g++) total += groups.sizeOfKeyGroup(g);
    expect(total).toBe(mine.length);
  });
});
