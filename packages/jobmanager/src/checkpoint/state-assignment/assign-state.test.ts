import { describe, expect, it } from 'vitest';
import type { JobGraph, JobVertex } from '@weir/api';
import {
  decodeOperatorLists,
  isWeirError,
  type CheckpointMetadata,
  type HeapKeyedStateHandle,
  type OperatorList,
  type OperatorMetadata,
  type OperatorStateHandle,
  type OperatorSubtaskState,
  type StreamStateHandle,
} from '@weir/common';
import { jobGraph, vertex } from '../../testing/fixtures.ts';
import { assignState, assignedState, type StateAssignment } from './assign-state.ts';
import { inlineOperatorLists } from './operator-state-codec.ts';

const MAX = 128;

function keyed(start: number, end: number, path: string): HeapKeyedStateHandle {
  return { backend: 'heap', keyGroupRange: { start, end }, offsets: [], handle: { kind: 'file', path, size: 10 }, states: {} };
}

function lists(entries: Record<string, [OperatorList['mode'], unknown[]]>): OperatorStateHandle {
  return inlineOperatorLists(new Map(Object.entries(entries).map(([name, [mode, e]]) => [name, { mode, entries: e }])));
}

function operator(id: string, subtasks: (OperatorSubtaskState | null)[], extra: Partial<OperatorMetadata> = {}): OperatorMetadata {
  return { operatorId: `op-${id}`, uid: id, name: `V-${id}`, parallelism: subtasks.length, maxParallelism: MAX, subtasks, ...extra };
}

function checkpoint(...operators: OperatorMetadata[]): CheckpointMetadata {
  return { version: 1, kind: 'savepoint', jobId: 'old-job', jobName: 'old', checkpointId: 9, timestamp: 1, operators };
}

/** Every handle's lists as name → entries, inline bytes decoded; file handles by path. */
function listsOf(handles: readonly OperatorStateHandle[] | undefined): unknown[] {
  return (handles ?? []).map((h) => {
    const names = Object.keys(h.states);
    if (h.handle.kind === 'file') return { file: h.handle.path, names };
    const all = decodeOperatorLists(h.states, Buffer.from(h.handle.data, 'base64'));
    if (typeof all === 'string') throw new Error(all);
    return Object.fromEntries(names.map((n) => [n, all.get(n)!.entries]));
  });
}

const noReads = async (handle: Extract<StreamStateHandle, { kind: 'file' }>): Promise<Uint8Array> => {
  throw new Error(`unexpected read of ${JSON.stringify(handle)}`);
};

function assign(metadata: CheckpointMetadata, graph: JobGraph, allowNonRestoredState = false): Promise<StateAssignment> {
  return assignState({ metadata, jobGraph: graph, allowNonRestoredState, source: 'savepoint /sp', readHandle: noReads });
}

function keyedOf(assignment: StateAssignment, v: JobVertex): string[][] {
  return Array.from({ length: v.parallelism }, (_, i) =>
    (assignedState(assignment, v.id, i).operators[`op-${v.id}`]?.keyed ?? []).map((h) => (h.backend === 'heap' && h.handle.kind === 'file' ? h.handle.path : '?')),
  );
}

describe('assignState', () => {
  const twoSubtasks = checkpoint(operator('sum', [{ keyed: [keyed(0, 63, 'a')] }, { keyed: [keyed(64, 127, 'b')] }]));

  it('keeps each subtask its own state at an unchanged parallelism, without reading anything', async () => {
    const source = lists({ '$source-reader': ['split', ['pos-0']] });
    const metadata = checkpoint(operator('src', [{ operator: [source] }, null]), operator('sum', [{ keyed: [keyed(0, 63, 'a')] }, { keyed: [keyed(64, 127, 'b')] }]));
    const sum = vertex('sum', 2);
    const assignment = await assign(metadata, jobGraph(vertex('src', 2), sum));
    expect(assignedState(assignment, 'src', 0)).toEqual({ operators: { 'op-src': { operator: [source] } } });
    expect(assignedState(assignment, 'src', 1)).toEqual({ operators: {} });
    expect(keyedOf(assignment, sum)).toEqual([['a'], ['b']]);
    expect(assignment.skipped).toEqual([]);
  });

  it('gives every new subtask the keyed handles overlapping its key groups: 2 → 3', async () => {
    const sum = vertex('sum', 3);
    expect(keyedOf(await assign(twoSubtasks, jobGraph(sum)), sum)).toEqual([['a'], ['a', 'b'], ['b']]);
  });

  it('gives one subtask all keyed handles: 3 → 1', async () => {
    const metadata = checkpoint(operator('sum', [{ keyed: [keyed(0, 42, 'a')] }, { keyed: [keyed(43, 85, 'b')] }, { keyed: [keyed(86, 127, 'c')] }]));
    const sum = vertex('sum', 1);
    expect(keyedOf(await assign(metadata, jobGraph(sum)), sum)).toEqual([['a', 'b', 'c']]);
  });

  it('deals split lists out evenly, in subtask order, when the parallelism changes', async () => {
    const metadata = checkpoint(
      operator('buf', [{ operator: [lists({ pending: ['split', [1, 2, 3]] })] }, { operator: [lists({ pending: ['split', [4, 5]] })] }]),
    );
    const up = await assign(metadata, jobGraph(vertex('buf', 3)));
    expect([0, 1, 2].map((i) => listsOf(assignedState(up, 'buf', i).operators['op-buf']?.operator))).toEqual([
      [{ pending: [1] }],
      [{ pending: [2, 3] }],
      [{ pending: [4, 5] }],
    ]);
    const down = await assign(metadata, jobGraph(vertex('buf', 1)));
    expect(listsOf(assignedState(down, 'buf', 0).operators['op-buf']?.operator)).toEqual([{ pending: [1, 2, 3, 4, 5] }]);
  });

  it('reads split lists kept in files through the reader', async () => {
    const inline = lists({ pending: ['split', ['x', 'y']] });
    const inFile: OperatorStateHandle = { handle: { kind: 'file', path: 'op-buf-0', size: inline.handle.size }, states: inline.states };
    const bytes = Buffer.from((inline.handle as { data: string }).data, 'base64');
    const reads: string[] = [];
    const assignment = await assignState({
      metadata: checkpoint(operator('buf', [{ operator: [inFile] }])),
      jobGraph: jobGraph(vertex('buf', 2)),
      allowNonRestoredState: false,
      source: 'savepoint /sp',
      readHandle: async (h) => {
        reads.push(h.path);
        return bytes;
      },
    });
    expect(reads).toEqual(['op-buf-0']);
    expect([0, 1].map((i) => listsOf(assignedState(assignment, 'buf', i).operators['op-buf']?.operator))).toEqual([[{ pending: ['x'] }], [{ pending: ['y'] }]]);
  });

  it('gives every subtask all union entries, at the same parallelism and a new one, by referring to the old handles', async () => {
    const h0: OperatorStateHandle = { handle: { kind: 'file', path: 'u0', size: 1 }, states: { offsets: { mode: 'union' }, own: { mode: 'split' } } };
    const h1: OperatorStateHandle = { handle: { kind: 'file', path: 'u1', size: 1 }, states: { offsets: { mode: 'union' } } };
    const metadata = checkpoint(operator('src', [{ operator: [h0] }, { operator: [h1] }]));
    const same = await assign(metadata, jobGraph(vertex('src', 2)));
    expect(listsOf(assignedState(same, 'src', 0).operators['op-src']?.operator)).toEqual([
      { file: 'u0', names: ['offsets', 'own'] },
      { file: 'u1', names: ['offsets'] },
    ]);
    expect(listsOf(assignedState(same, 'src', 1).operators['op-src']?.operator)).toEqual([
      { file: 'u1', names: ['offsets'] },
      { file: 'u0', names: ['offsets'] },
    ]);
    const unionOnly = checkpoint(operator('src', [{ operator: [h1] }, { operator: [{ ...h1, handle: { kind: 'file', path: 'u2', size: 1 } }] }]));
    const up = await assign(unionOnly, jobGraph(vertex('src', 3)));
    for (const i of [0, 1, 2]) {
      expect(listsOf(assignedState(up, 'src', i).operators['op-src']?.operator)).toEqual([
        { file: 'u1', names: ['offsets'] },
        { file: 'u2', names: ['offsets'] },
      ]);
    }
  });

  it('gives every subtask one copy of the broadcast state, scaled up or down, without reading it (Flink\'s BROADCAST mode)', async () => {
    const copy = (i: number): OperatorStateHandle => ({ handle: { kind: 'file', path: `b${i}`, size: 1 }, states: { rules: { mode: 'broadcast' } } });
    const metadata = checkpoint(operator('bc', [{ operator: [copy(0)] }, { operator: [copy(1)] }]));
    const copies = async (parallelism: number) => {
      const assignment = await assign(metadata, jobGraph(vertex('bc', parallelism)));
      return Array.from({ length: parallelism }, (_, i) => listsOf(assignedState(assignment, 'bc', i).operators['op-bc']?.operator));
    };
    expect(await copies(2)).toEqual([[{ file: 'b0', names: ['rules'] }], [{ file: 'b1', names: ['rules'] }]]);
    expect(await copies(3)).toEqual([[{ file: 'b0', names: ['rules'] }], [{ file: 'b1', names: ['rules'] }], [{ file: 'b0', names: ['rules'] }]]);
    expect(await copies(1)).toEqual([[{ file: 'b0', names: ['rules'] }]]);
  });

  it('fails naming the operators whose state no operator takes, unless allowNonRestoredState', async () => {
    const metadata = checkpoint(
      operator('gone', [{ keyed: [keyed(0, 127, 'g')] }]),
      operator('also-gone', [{ operator: [lists({ l: ['split', [1]] })] }], { uid: undefined, operatorId: 'abc123', name: 'Map' }),
      operator('stateless', [null]),
    );
    const graph = jobGraph(vertex('sum', 1));
    const err = await assign(metadata, graph).catch((e: unknown) => e);
    expect(isWeirError(err, 'UNMAPPED_STATE')).toBe(true);
    expect((err as Error).message).toBe(
      `savepoint /sp holds state of 2 operators the job does not have: uid 'gone' ("V-gone", ID op-gone), "Map" (ID abc123, no uid); ` +
        'give the operators of the new job the uids they had, or pass -n (--allowNonRestoredState) to start without that state',
    );
    const allowed = await assign(metadata, graph, true);
    expect(allowed.skipped.map((op) => op.operatorId)).toEqual(['op-gone', 'abc123']);
    expect(assignedState(allowed, 'sum', 0)).toEqual({ operators: {} });
  });

  it('refuses keyed state under another max parallelism', async () => {
    const err = await assign(twoSubtasks, jobGraph({ ...vertex('sum', 2), maxParallelism: 256 })).catch((e: unknown) => e);
    expect(isWeirError(err, 'RESTORE_MISMATCH')).toBe(true);
    expect((err as Error).message).toBe(
      `savepoint /sp holds keyed state of uid 'sum' ("V-sum", ID op-sum) with max parallelism 128, and the job now gives it max parallelism 256; ` +
        'keyed state is split into max-parallelism key groups, so it must not change: set setMaxParallelism(128) on the operator (or pipeline.max-parallelism)',
    );
  });

  it('restores in-flight channel data at an unchanged parallelism and refuses to rescale it', async () => {
    const channel = { handle: { kind: 'file', path: 'ch-0', size: 5 }, channels: [] } as const;
    const metadata = checkpoint(operator('sum', [{ channel }, null]), operator('src', [null, null]));
    const same = await assign(metadata, jobGraph(vertex('src', 2), vertex('sum', 2)));
    expect(assignedState(same, 'sum', 0)).toEqual({ operators: { 'op-sum': { channel } } });
    const err = await assign(metadata, jobGraph(vertex('src', 3), vertex('sum', 2))).catch((e: unknown) => e);
    expect(isWeirError(err, 'RESTORE_MISMATCH')).toBe(true);
    expect((err as Error).message).toBe(
      `savepoint /sp is an unaligned checkpoint holding in-flight data (of uid 'sum' ("V-sum", ID op-sum)), and uid 'src' ("V-src", ID op-src) now runs at parallelism 3 instead of 2; ` +
        'in-flight data cannot be redistributed: restore from a savepoint (aligned) to rescale',
    );
  });

  it('refuses in-flight channel data of an operator the job now chains behind another', async () => {
    const channel = { handle: { kind: 'file', path: 'ch-0', size: 5 }, channels: [] } as const;
    const metadata = checkpoint(operator('map', [{ channel }]), operator('src', [null]));
    const src = vertex('src', 1);
    const chained = { ...src, name: 'V-src -> V-map', operators: [...src.operators, { ...vertex('map', 1).operators[0]!, nodeId: 1 }] };
    const err = await assign(metadata, jobGraph(chained)).catch((e: unknown) => e);
    expect(isWeirError(err, 'RESTORE_MISMATCH')).toBe(true);
    expect((err as Error).message).toBe(
      `savepoint /sp is an unaligned checkpoint holding in-flight data of uid 'map' ("V-map", ID op-map), which the job now chains behind 'V-src -> V-map'; ` +
        'in-flight data can only go back to the input it was read from: restore from a savepoint (aligned) to change the chaining',
    );
  });

  it('starts operators the checkpoint does not know empty', async () => {
    const assignment = await assign(twoSubtasks, jobGraph(vertex('sum', 2), vertex('new', 2)));
    expect(assignedState(assignment, 'new', 1)).toEqual({ operators: {} });
    expect(assignedState(assignment, 'unknown-vertex', 0)).toEqual({ operators: {} });
  });
});
