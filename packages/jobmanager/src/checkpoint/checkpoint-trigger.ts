import type { JobGraph } from '@weir/api';
import { CHECKPOINT_OPTIONS, CheckpointFailureReason, type CheckpointOptions, type Logger } from '@weir/common';
import type { Execution } from '../job/execution.ts';
import { subtaskName } from '../job/task-name.ts';
import type { SavepointOperation } from '../savepoint/savepoint-operation.ts';
import type { SavepointTracker } from '../savepoint/savepoint-tracker.ts';
import type { CheckpointHistory } from './checkpoint-history.ts';
import type { CheckpointIds } from './checkpoint-ids.ts';
import type { CheckpointMessenger } from './checkpoint-messenger.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import { triggerAfterEnumerators, type CheckpointedSources } from './checkpointed-sources.ts';
import type { FinishedTaskState } from './finished-task-state.ts';
import type { InFlightCheckpoints } from './in-flight-checkpoints.ts';
import { PendingCheckpoint } from './pending-checkpoint.ts';

export interface CheckpointTriggerDeps {
  readonly jobGraph: JobGraph;
  readonly storage: JobCheckpointStorage | undefined;
  readonly logger: Logger;
  readonly timeoutMs: number;
  readonly sources: CheckpointedSources | undefined;
  readonly ids: CheckpointIds;
  readonly inFlight: InFlightCheckpoints;
  readonly history: CheckpointHistory;
  readonly savepoints: SavepointTracker;
  readonly finishedTasks: FinishedTaskState;
  readonly messenger: CheckpointMessenger;
  /** Gives up a pending checkpoint: it expired, a TaskManager is unreachable, or an enumerator's snapshot failed. */
  readonly abort: (pending: PendingCheckpoint, reason: CheckpointFailureReason, message: string) => void;
}

/** What a trigger did: the ID of the checkpoint now pending, or why none was triggered. */
export type TriggerOutcome = { readonly checkpointId: number } | { readonly skipped: string };

/**
 * Starts a checkpoint (or `savepoint`; a `full` one uploads every state file) of `execution`: plans who takes part (checkpoint-plan.ts),
 * reserves its ID, makes it pending with its expiry, and sends the triggers to the running tasks
 * without a running producer once the split enumerators' states are taken. It skips (logged)
 * when no checkpoint can be taken now; a savepoint never skips, as every task runs.
 */
export function triggerCheckpoint(deps: CheckpointTriggerDeps, execution: Execution, now: number, savepoint?: SavepointOperation, full = false): TriggerOutcome {
  const { logger, ids, inFlight } = deps;
  const plan = deps.finishedTasks.plan(execution);
  if (plan.kind === 'skip') {
    logger.debug({ nextCheckpointId: ids.last + 1 }, `skipping a checkpoint: ${plan.reason}`);
    return { skipped: plan.reason };
  }
  const checkpointId = ids.reserve();
  if (checkpointId === undefined) {
    // The HA side logs the outage; one line per skipped trigger would flood the log.
    const skipped = 'no checkpoint ID could be reserved in etcd (high availability)';
    logger.debug(`skipping a checkpoint: ${skipped}`);
    return { skipped };
  }
  const { triggered, acknowledging, carried } = plan;
  const pending = new PendingCheckpoint(checkpointId, execution.attempt, now, acknowledging, savepoint, carried);
  const name = (s: { vertexId: string; index: number }): string => subtaskName(deps.jobGraph, s.vertexId, s.index);
  inFlight.add(pending, deps.timeoutMs, (expired) => deps.abort(expired, CheckpointFailureReason.EXPIRED, expired.expiryMessage(deps.timeoutMs, name)));
  if (savepoint === undefined) {
    deps.history.started(checkpointId, now, acknowledging.length, deps.storage?.checkpointUrl(checkpointId) ?? '');
    logger.info({ checkpointId, attempt: execution.attempt, finishedTasks: carried.length || undefined }, `triggering checkpoint ${checkpointId}`);
  } else {
    deps.savepoints.triggered(pending, savepoint);
  }
  triggerAfterEnumerators(deps.sources, {
    checkpointId,
    stillPending: () => inFlight.isPending(pending),
    send: (states) => {
      if (states !== undefined) pending.coordinatorStates = states;
      const unreachable = deps.messenger.trigger(execution, triggered, checkpointId, now, savepoint?.options ?? (full ? FULL_CHECKPOINT_OPTIONS : CHECKPOINT_OPTIONS));
      if (unreachable.length > 0) {
        deps.abort(pending, CheckpointFailureReason.TASK_NOT_READY, `the TaskManagers of ${unreachable.map(name).join(', ')} are not connected`);
      }
    },
    abort: (message) => deps.abort(pending, CheckpointFailureReason.SNAPSHOT_FAILED, message),
  });
  return { checkpointId };
}

const FULL_CHECKPOINT_OPTIONS: CheckpointOptions = Object.freeze({ type: 'checkpoint', full: true });
