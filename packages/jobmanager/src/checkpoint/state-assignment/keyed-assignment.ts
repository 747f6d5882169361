import { keyGroupRangeForSubtask, type KeyGroupRange, type KeyedStateHandle } from '@weir/common';

/**
 * Keyed state of one operator for `newParallelism` subtasks, from the handles of its old
 * subtasks (index = old subtask): each new subtask gets every handle whose key-group range
 * overlaps its own, and the task reads only its own key groups out of them (from the
 * offsets of heap handles; by copying its range out of LevelDB snapshots).
 */
export function assignKeyedState(
  old: readonly (readonly KeyedStateHandle[])[],
  maxParallelism: number,
  newParallelism: number,
): KeyedStateHandle[][] {
  if (old.length === newParallelism) return old.map((handles) => [...handles]);
  const all = old.flat();
  return Array.from({ length: newParallelism }, (_, index) => {
    const own = keyGroupRangeForSubtask(maxParallelism, newParallelism, index);
    return all.filter((handle) => overlaps(handle.keyGroupRange, own));
  });
}

function overlaps(a: KeyGroupRange, b: KeyGroupRange): boolean {
  return a.start <= a.end && b.start <= b.end && a.start <= b.end && b.start <= a.end;
}
