import { JobStatus, type Logger } from '@weir/common';
import type { ExternalizedCheckpointCleanup } from '@weir/api';
import type { CheckpointHistory } from './checkpoint-history.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import type { CompletedCheckpointStore } from './completed-checkpoint-store.ts';

/**
 * Whether a job that ended with `status` keeps its retained checkpoints, as Flink's
 * externalized-checkpoint retention says: NO_EXTERNALIZED_CHECKPOINTS keeps none,
 * DELETE_ON_CANCELLATION keeps them only when the job failed, RETAIN_ON_CANCELLATION always.
 */
export function retainsCheckpoints(cleanup: ExternalizedCheckpointCleanup, status: JobStatus): boolean {
  switch (cleanup) {
    case 'NO_EXTERNALIZED_CHECKPOINTS':
      return false;
    case 'DELETE_ON_CANCELLATION':
      return status === JobStatus.FAILED;
    case 'RETAIN_ON_CANCELLATION':
      return true;
  }
}

export interface RetainedCheckpoints {
  readonly cleanup: ExternalizedCheckpointCleanup;
  readonly store: CompletedCheckpointStore;
  readonly history: CheckpointHistory;
  readonly storage: JobCheckpointStorage | undefined;
  readonly logger: Logger;
}

/** Keeps or deletes a finished job's checkpoints as its retention says; the job directory goes when nothing is kept in it. */
export async function applyRetention(checkpoints: RetainedCheckpoints, status: JobStatus): Promise<void> {
  const { cleanup, store, history, storage, logger } = checkpoints;
  const where = storage?.location() ?? 'JobManager memory';
  if (retainsCheckpoints(cleanup, status) && store.size > 0) {
    const kept = store.newestFirst().map((c) => c.checkpointId);
    logger.info({ status, checkpoints: kept }, `job ${status}: keeping checkpoints ${kept.join(', ')} in ${where} (${cleanup})`);
    return;
  }
  for (const checkpoint of store.clear()) history.discarded(checkpoint.checkpointId);
  if (storage === undefined) return;
  await storage.discardAll();
  logger.info({ status }, `job ${status}: deleted its checkpoint directory ${where} (${cleanup})`);
}
