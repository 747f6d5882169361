import { ListStateDescriptor, Types, ValueStateDescriptor, type ListState, type ValueState } from '@weir/api';
import { isWeirError, keyGroupForKey, keyGroupRangeForSubtask, type HeapKeyedStateHandle, type KeyedStateHandle } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { restoreOperatorState } from '../checkpoint/restore/restore-operator-state.ts';
import { CanonicalKeyedWriter } from '../checkpoint/snapshot/canonical-writer.ts';
import { serializeKeyedState } from '../checkpoint/snapshot/keyed-state-serializer.ts';
import { HeapKeyedStateBackend } from './heap-keyed-state-backend.ts';
import { KeyContext } from './key-context.ts';
import { OperatorStateStore } from './operator-state-store.ts';

const MAX_PARALLELISM = 128;
const GENERIC = { kind: 'value', type: { kind: 'GENERIC' } } as const;

function backend(): HeapKeyedStateBackend {
  const range = keyGroupRangeForSubtask(MAX_PARALLELISM, 1, 0);
  return new HeapKeyedStateBackend(new KeyContext(MAX_PARALLELISM, range, 'Window (1/1)'), 'Window (1/1)');
}

function contentsOf(b: HeapKeyedStateBackend): ValueState<unknown> {
  return b.getNamespacedState(new ValueStateDescriptor('contents', Types.GENERIC()), 'contents') as ValueState<unknown>;
}

/** (key, namespace, value) of each entry below, and the entry's name in every snapshot Weir has written: `<namespace>\u0001<type letter><key>`. */
const ENTRIES: readonly (readonly [unknown, string, unknown, string])[] = [
  ['a', '0:10', 1, '0:10\u0001sa'],
  ['a', '10:20', 2, '10:20\u0001sa'],
  [7, '0:10', 3, '0:10\u0001n7'],
  ['7', '0:10', 4, '0:10\u0001s7'],
  [{ user: 1 }, '0:10', 5, '0:10\u0001s\u0000{"user":1}'],
  [true, 'global', 6, 'global\u0001t'],
  [12n, '0\u0002x', 7, '0\u0002x\u0001b12'],
];

function write(b: HeapKeyedStateBackend, state: ValueState<unknown>): void {
  for (const [key, namespace, value] of ENTRIES) {
    b.keys.setCurrentKey(key);
    b.keys.namespace = namespace;
    state.update(value);
  }
}

function readAll(b: HeapKeyedStateBackend, state: ValueState<unknown>): unknown[] {
  return ENTRIES.map(([key, namespace]) => {
    b.keys.setCurrentKey(key);
    b.keys.namespace = namespace;
    return state.value();
  });
}

/** The entries of one state in a snapshot, as [name, value] pairs in key group order. */
function snapshotEntries(b: HeapKeyedStateBackend, name: string): [unknown, unknown][] {
  const state = b.snapshot().states.find((s) => s.name === name)!;
  return state.groups.flatMap((group) => (group === undefined ? [] : [...group].map(([k, v]) => [k, v] as [unknown, unknown])));
}

const byName = (a: [unknown, unknown], b: [unknown, unknown]): number => String(a[0]).localeCompare(String(b[0]));

/** Canonical bytes of `entries` as an earlier Weir wrote them for state `contents`: the handle a savepoint of it holds. */
function canonicalHandle(entries: readonly (readonly [unknown, string, unknown, string])[]): HeapKeyedStateHandle {
  const range = { start: 0, end: MAX_PARALLELISM - 1 };
  const writer = new CanonicalKeyedWriter(range);
  const byGroup = [...entries].sort((a, b) => keyGroupForKey(a[0], MAX_PARALLELISM) - keyGroupForKey(b[0], MAX_PARALLELISM));
  for (const [key, , value, name] of byGroup) writer.add(keyGroupForKey(key, MAX_PARALLELISM), 'contents', name, value);
  const { bytes, offsets } = writer.finish();
  const data = Buffer.from(bytes).toString('base64');
  return { backend: 'heap', keyGroupRange: range, offsets, handle: { kind: 'inline', data, size: bytes.byteLength }, states: { contents: GENERIC } };
}

async function restore(b: HeapKeyedStateBackend, handle: KeyedStateHandle): Promise<void> {
  await restoreOperatorState(
    { checkpointId: 1, state: { operators: { op: { keyed: [handle] } } }, storage: undefined, jobStorage: undefined },
    { operatorId: 'op', label: 'Window (1/1)', keyed: b, lists: new OperatorStateStore('Window (1/1)') },
  );
}

describe('namespaced heap state (a window\'s)', () => {
  it('keeps a value per (key, namespace), keys of different types apart, and names each entry in snapshots as every earlier Weir did', () => {
    const b = backend();
    const contents = contentsOf(b);
    write(b, contents);
    expect(readAll(b, contents)).toEqual(ENTRIES.map((e) => e[2]));
    b.keys.setCurrentKey('a');
    b.keys.namespace = '20:30';
    expect(contents.value()).toBeUndefined();
    expect(b.entryCounts()).toEqual({ contents: ENTRIES.length });
    expect(snapshotEntries(b, 'contents').sort(byName)).toEqual(ENTRIES.map(([, , value, name]): [unknown, unknown] => [name, value]).sort(byName));
  });

  it.each([
    ['registered before the restore (a window operator\'s contents)', true],
    ['registered after the restore (timers, on their first registration)', false],
  ])('restores the snapshot of an earlier Weir, %s', async (_case, registerFirst) => {
    const b = backend();
    const early = registerFirst ? contentsOf(b) : undefined;
    await restore(b, canonicalHandle(ENTRIES));
    // Until a function asks for it, the restored state is read as it was written (the timer service's restore does so).
    if (!registerFirst) expect([...b.table('contents')!.values()].sort()).toEqual(ENTRIES.map((e) => e[2]).sort());
    const contents = early ?? contentsOf(b);
    expect(readAll(b, contents)).toEqual(ENTRIES.map((e) => e[2]));
    expect(b.entryCounts()).toEqual({ contents: ENTRIES.length });
    const again = await serializeKeyedState(b.snapshot());
    const rewritten = backend();
    await restore(rewritten, { ...canonicalHandle([]), offsets: again.offsets, handle: { kind: 'inline', data: Buffer.from(again.bytes).toString('base64'), size: again.bytes.byteLength } });
    expect(readAll(rewritten, contentsOf(rewritten))).toEqual(ENTRIES.map((e) => e[2]));
  });

  it('fails a restore whose entry is not <namespace>\\u0001<key> with CHECKPOINT_CORRUPT', async () => {
    const b = backend();
    contentsOf(b);
    const err = await restore(b, canonicalHandle([['a', '0:10', 1, '0:10|sa']])).catch((e: unknown) => e);
    expect(isWeirError(err) && err.code).toBe('CHECKPOINT_CORRUPT');
    expect(String(err)).toContain("namespaced state 'contents' was restored with the entry key \"0:10|sa\"");
  });

  it('copy-on-write: a snapshot keeps what it saw; a group and a namespace\'s Map are copied once on their first change after it', () => {
    const b = backend();
    const contents = contentsOf(b);
    const lists = b.getNamespacedState(new ListStateDescriptor('lists', Types.GENERIC()), 'lists') as ListState<unknown>;
    write(b, contents);
    b.keys.setCurrentKey('a');
    b.keys.namespace = '0:10';
    lists.add('x');
    const table = b.table('contents')!;
    expect([table.copies, b.table('lists')!.copies]).toEqual([0, 0]);
    const before = snapshotEntries(b, 'contents');
    const seen = b.snapshot();

    b.keys.setCurrentKey('a');
    b.keys.namespace = '0:10';
    contents.update(100);
    contents.update(101);
    lists.add('y');
    // The group Map and the namespace's Map, once each; the list state's group, namespace Map and list.
    expect([table.copies, b.table('lists')!.copies]).toEqual([2, 3]);
    b.keys.namespace = '10:20';
    contents.clear();
    b.keys.namespace = '30:40';
    contents.update(9);
    expect(table.copies).toBe(3);

    const seenContents = seen.states.find((s) => s.name === 'contents')!;
    const seenLists = seen.states.find((s) => s.name === 'lists')!;
    expect(seenContents.groups.flatMap((g) => (g === undefined ? [] : [...g]))).toEqual(before);
    expect(seenLists.groups.flatMap((g) => (g === undefined ? [] : [...g]))).toEqual([['0:10\u0001sa', ['x']]]);
    b.keys.namespace = '0:10';
    expect([contents.value(), [...lists.get()]]).toEqual([101, ['x', 'y']]);
    b.keys.namespace = '10:20';
    expect(contents.value()).toBeUndefined();
  });

  it('clears entries (twice is harmless) until none is left, and never copies without snapshots', () => {
    const b = backend();
    const contents = contentsOf(b);
    write(b, contents);
    for (const [key, namespace] of ENTRIES) {
      b.keys.setCurrentKey(key);
      b.keys.namespace = namespace;
      contents.clear();
      contents.clear();
    }
    expect(b.entryCounts()).toEqual({ contents: 0 });
    expect(snapshotEntries(b, 'contents')).toEqual([]);
    expect(b.table('contents')!.copies).toBe(0);
  });
});
