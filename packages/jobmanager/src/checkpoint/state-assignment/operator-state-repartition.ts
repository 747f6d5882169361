import type { OperatorList, OperatorListMode, OperatorStateHandle } from '@weir/common';
import { inlineOperatorLists } from './operator-state-codec.ts';

/** Reads and decodes one handle's lists; throws a WeirError when it cannot. */
export type ListReader = (handle: OperatorStateHandle, oldSubtask: number) => Promise<ReadonlyMap<string, OperatorList>>;

/**
 * Operator state of one operator for `newParallelism` subtasks, from the handles of its old
 * subtasks (index = old subtask), as Flink's round-robin repartitioner does:
 *
 * - `union` lists go whole to every subtask, at any parallelism: each subtask gets the other
 *   subtasks' handles narrowed to their union lists (a task restores only the lists a
 *   handle's `states` names), so nothing is read here;
 * - `broadcast` lists (broadcast state: every subtask holds the same copy) stay with their
 *   subtask at an unchanged parallelism; at a new one, new subtask i gets the copy of old
 *   subtask i mod old parallelism, as Flink's repartitioner does, so scaling up or down gives
 *   every subtask exactly one copy and nothing is read here;
 * - `split` lists stay with their subtask at an unchanged parallelism (a source reader keeps
 *   its own position); at a new one they are read, concatenated in subtask order and dealt
 *   out in even contiguous shares, written inline.
 */
export async function repartitionOperatorState(
  old: readonly (readonly OperatorStateHandle[])[],
  newParallelism: number,
  read: ListReader,
): Promise<OperatorStateHandle[][]> {
  const same = old.length === newParallelism;
  const unionOf = (index: number) =>
    old.flatMap((handles, j) => (same && j === index ? [] : handles.flatMap((h) => narrowed(h, 'union'))));
  if (same) return old.map((handles, index) => [...handles, ...unionOf(index)]);
  const split = await splitLists(old, read);
  return Array.from({ length: newParallelism }, (_, index) => {
    const own = new Map<string, OperatorList>();
    for (const [name, entries] of split) own.set(name, { mode: 'split', entries: evenShare(entries, index, newParallelism) });
    const broadcast = (old[index % old.length] ?? []).flatMap((h) => narrowed(h, 'broadcast'));
    return [...(own.size > 0 ? [inlineOperatorLists(own)] : []), ...broadcast, ...unionOf(index)];
  });
}

/** Subtask `index`'s share of `entries` dealt to `parallelism` subtasks: contiguous, sizes differing by at most one. */
export function evenShare<T>(entries: readonly T[], index: number, parallelism: number): T[] {
  const from = Math.floor((index * entries.length) / parallelism);
  const to = Math.floor(((index + 1) * entries.length) / parallelism);
  return entries.slice(from, to);
}

/** `handle` restricted to its lists of `mode`; none when it has no such list. */
function narrowed(handle: OperatorStateHandle, mode: OperatorListMode): OperatorStateHandle[] {
  const states = Object.fromEntries(Object.entries(handle.states).filter(([, s]) => s.mode === mode));
  return Object.keys(states).length === 0 ? [] : [{ handle: handle.handle, states }];
}

/** Every split list's entries over all old subtasks, in subtask and handle order; reads only handles that hold split lists. */
async function splitLists(old: readonly (readonly OperatorStateHandle[])[], read: ListReader): Promise<Map<string, unknown[]>> {
  const decoded = await Promise.all(
    old.map((handles, index) => Promise.all(handles.flatMap((h) => narrowed(h, 'split')).map((h) => read(h, index)))),
  );
  const all = new Map<string, unknown[]>();
  for (const lists of decoded.flat()) {
    for (const [name, list] of lists) {
      const entries = all.get(name) ?? [];
      entries.push(...list.entries);
      all.set(name, entries);
    }
  }
  return all;
}
