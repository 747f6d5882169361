import type { JobGraph } from '@weir/api';
import { CheckpointFailureReason, describeError, encodeCheckpointMetadata, isWeirError, type CheckpointMetadata } from '@weir/common';
import { HaErrorCode } from '@weir/ha';
import type { JobCheckpointHa } from '../ha/leader-ha.ts';
import type { SavepointOperation } from '../savepoint/savepoint-operation.ts';
import { buildCheckpointMetadata } from './checkpoint-metadata.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import { subsumedByNewer, type CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import type { CheckpointFailure, FinishedTaskState } from './finished-task-state.ts';
import type { PendingCheckpoint } from './pending-checkpoint.ts';

export interface CheckpointWriterDeps {
  readonly jobId: string;
  readonly jobGraph: JobGraph;
  /** undefined: the memory backend without a directory, whose `_metadata` stays in memory. */
  readonly storage: JobCheckpointStorage | undefined;
  readonly ha: JobCheckpointHa | undefined;
  readonly numRetained: number;
  readonly store: CompletedCheckpointStore;
  readonly finishedTasks: FinishedTaskState;
}

/** How writing a fully acknowledged checkpoint ended. */
export type WriteOutcome =
  /** Failed; `keepFiles` when etcd may point at what was written (an unknown registration outcome). */
  | (CheckpointFailure & { readonly kind: 'failed'; readonly keepFiles?: boolean })
  /** A plain savepoint: written, neither retained nor committed. */
  | { readonly kind: 'savepoint-written'; readonly savepoint: SavepointOperation }
  /** A checkpoint, or a stop's savepoint: written (and with HA registered), to be completed. */
  | { readonly kind: 'committed'; readonly metadata: CheckpointMetadata };

/**
 * Writes a checkpoint every task acknowledged: takes over the state of finished tasks (after
 * `earlier` finalizations settled), writes `_metadata` last, and with HA makes it count by
 * registering it in etcd. The coordinator acts on the outcome.
 */
export async function writeCheckpoint(deps: CheckpointWriterDeps, pending: PendingCheckpoint, earlier: readonly Promise<void>[]): Promise<WriteOutcome> {
  const { checkpointId } = pending;
  const target = pending.savepoint?.target;
  const failure = pending.carried.length === 0 ? undefined : await deps.finishedTasks.takeOver(pending, earlier);
  if (failure !== undefined) return { kind: 'failed', ...failure };
  const metadata = buildCheckpointMetadata({
    jobId: deps.jobId,
    jobGraph: deps.jobGraph,
    checkpointId,
    timestamp: pending.timestamp,
    kind: target === undefined ? 'checkpoint' : 'savepoint',
    stateOf: (vertexId, index) => pending.stateOf(vertexId, index),
    ...(pending.coordinatorStates === undefined ? {} : { coordinatorStates: pending.coordinatorStates }),
  });
  if (deps.ha !== undefined && !deps.ha.mayWrite()) {
    return { kind: 'failed', reason: CheckpointFailureReason.HA_UNAVAILABLE, message: 'this JobManager may no longer lead (its etcd lease could not be renewed in time), so it writes no _metadata' };
  }
  try {
    const bytes = encodeCheckpointMetadata(metadata);
    await (target === undefined ? deps.storage?.writeMetadata(checkpointId, bytes) : target.writeMetadata(bytes));
  } catch (err) {
    const where = target === undefined ? deps.storage!.metadataLocation(checkpointId) : target.metadataLocation();
    return { kind: 'failed', reason: CheckpointFailureReason.STORAGE_FAILURE, message: `could not write ${where}: ${describeError(err)}` };
  }
  if (pending.savepoint !== undefined && !pending.savepoint.terminating) return { kind: 'savepoint-written', savepoint: pending.savepoint };
  const failed = await register(deps, pending);
  return failed ?? { kind: 'committed', metadata };
}

/**
 * With HA, makes the checkpoint count by registering it in etcd (with the pointers it
 * subsumes dropped); the failure when that did not happen. A refused registration (another
 * leader) deletes its files; an unknown outcome keeps them, since etcd may point at them.
 */
async function register(deps: CheckpointWriterDeps, pending: PendingCheckpoint): Promise<WriteOutcome | undefined> {
  const { ha } = deps;
  if (ha === undefined) return undefined;
  const { checkpointId } = pending;
  // Not registered behind a newer checkpoint: the coordinator would not complete it (see its #complete).
  const subsumed = subsumedByNewer(deps.store, checkpointId);
  if (subsumed !== undefined) return { kind: 'failed', reason: CheckpointFailureReason.SUBSUMED, message: subsumed };
  const path = pending.savepoint?.target.url ?? deps.storage?.checkpointUrl(checkpointId) ?? '';
  const retained = [checkpointId, ...deps.store.newestFirst().map((c) => c.checkpointId)].slice(0, deps.numRetained);
  try {
    await ha.register(checkpointId, path, pending.timestamp, Math.min(...retained));
    return undefined;
  } catch (err) {
    const refused = isWeirError(err, HaErrorCode.LEADERSHIP_LOST);
    return { kind: 'failed', reason: CheckpointFailureReason.HA_UNAVAILABLE, message: `could not register it in etcd: ${describeError(err)}`, keepFiles: !refused };
  }
}
