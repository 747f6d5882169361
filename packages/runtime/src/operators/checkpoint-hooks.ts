import { isCheckpointedFunction, isCheckpointListener } from '@weir/api';
import type { FailureWrapper } from './operator-failure.ts';
import type { OperatorContext } from './operator-context.ts';

/** A CheckpointedFunction's initializeState, after the runtime context is set and before open (as in Flink). */
export async function initializeFunctionState(fn: unknown, context: OperatorContext): Promise<void> {
  if (!isCheckpointedFunction(fn)) return;
  const { restored, lists, failures } = context;
  await failures.call(() => fn.initializeState({ isRestored: () => restored, getOperatorStateStore: () => lists }));
}

/** A CheckpointedFunction's snapshotState, in the synchronous part of checkpoint `checkpointId`. */
export function snapshotFunctionState(fn: unknown, failures: FailureWrapper, checkpointId: number, timestamp: number): void {
  if (!isCheckpointedFunction(fn)) return;
  try {
    fn.snapshotState({ checkpointId, checkpointTimestamp: timestamp });
  } catch (err) {
    throw failures.wrap(err);
  }
}

/** Tells a CheckpointListener (function, reader or writer) that a checkpoint completed (`completed`) or was aborted. */
export async function notifyListener(target: unknown, failures: FailureWrapper, checkpointId: number, completed: boolean): Promise<void> {
  if (!isCheckpointListener(target)) return;
  if (completed) await failures.call(() => target.notifyCheckpointComplete(checkpointId));
  else if (target.notifyCheckpointAborted !== undefined) await failures.call(() => target.notifyCheckpointAborted!(checkpointId));
}
