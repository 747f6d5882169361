import type { OperatorStates } from '../task/chain-builder.ts';

/**
 * What a task does with its operators' state besides reading and writing it: open it before
 * the restore, tell it which checkpoints completed or were aborted (an incremental backend
 * needs to know which uploads are confirmed), and dispose of it when the task ends, however
 * it ends. Heap state needs none of it; the LevelDB backend opens and removes its DB here.
 */
export async function openOperatorStates(states: readonly OperatorStates[]): Promise<void> {
  for (const state of states) await state.keyed?.open();
}

export function notifyStatesCheckpointComplete(states: readonly OperatorStates[], checkpointId: number): void {
  for (const state of states) state.keyed?.notifyCheckpointComplete(checkpointId);
}

export function notifyStatesCheckpointAborted(states: readonly OperatorStates[], checkpointId: number): void {
  for (const state of states) state.keyed?.notifyCheckpointAborted(checkpointId);
}

/** Best effort: a state that cannot be disposed of must not keep the others from it. */
export async function disposeOperatorStates(states: readonly OperatorStates[]): Promise<Error[]> {
  const errors: Error[] = [];
  for (const state of states) {
    try {
      await state.keyed?.dispose();
    } catch (err) {
      errors.push(err instanceof Error ? err : new Error(String(err)));
    }
  }
  return errors;
}
