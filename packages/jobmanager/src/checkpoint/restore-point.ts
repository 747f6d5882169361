import type { JobGraph } from '@weir/api';
import { WeirError, describeError, isWeirError, type CheckpointMetadata, type Logger } from '@weir/common';
import { StorageErrorCode } from '@weir/storage';
import { JobManagerErrorCode } from '../errors.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import type { CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import { decodeMetadata } from './checkpoint-metadata.ts';
import { restoreMismatch } from './task-restore.ts';

/** The checkpoint a new attempt starts from. */
export interface RestorePoint {
  readonly checkpointId: number;
  readonly metadata: CheckpointMetadata;
  /** URL of the directory holding the checkpoint's `_metadata`; empty when it lives in the JobManager's memory. */
  readonly checkpointPath: string;
}

/** `weir run -s <path> [-n]`: the savepoint or retained checkpoint a job's first attempt starts from, read and checked at submission. */
export interface InitialRestore {
  readonly point: RestorePoint;
  /** -n: state of operators the job no longer has is skipped instead of failing the submission. */
  readonly allowNonRestoredState: boolean;
}

/** What a new attempt starts from, or why it cannot start. */
export type RestoreOutcome =
  | { readonly kind: 'checkpoint'; readonly point: RestorePoint }
  /** No checkpoint was ever completed: the attempt starts empty. */
  | { readonly kind: 'fresh' }
  /** The storage could not be read right now (S3 down): this attempt failed, a later one may succeed. */
  | { readonly kind: 'retry'; readonly cause: WeirError }
  /** Checkpoints exist but none can be restored: restarting would lose state, so the job fails. */
  | { readonly kind: 'fatal'; readonly cause: WeirError };

export interface RestoreSources {
  readonly jobId: string;
  readonly jobGraph: JobGraph;
  readonly store: CompletedCheckpointStore;
  readonly storage: JobCheckpointStorage | undefined;
  readonly logger: Logger;
}

/**
 * The latest retained checkpoint whose `_metadata` reads back whole: re-read from storage,
 * since that file and not the JobManager's memory is what a checkpoint is. A missing or
 * corrupt one is skipped with a warning naming it, for the one before.
 */
export async function loadRestoreOutcome(sources: RestoreSources): Promise<RestoreOutcome> {
  const { store, storage, logger } = sources;
  const candidates = store.newestFirst();
  if (candidates.length === 0) return { kind: 'fresh' };
  const problems: string[] = [];
  for (const candidate of candidates) {
    const { checkpointId } = candidate;
    let point: RestorePoint;
    if (storage === undefined) {
      point = { checkpointId, metadata: candidate.metadata, checkpointPath: '' };
    } else {
      const where = storage.metadataLocation(checkpointId);
      let bytes: Uint8Array;
      try {
        bytes = await storage.readMetadata(checkpointId);
      } catch (err) {
        if (!isWeirError(err, StorageErrorCode.STORAGE_NOT_FOUND)) {
          return { kind: 'retry', cause: new WeirError(isWeirError(err) ? err.code : StorageErrorCode.STORAGE_FAILURE, `cannot read ${where} to restore checkpoint ${checkpointId}: ${describeError(err)}`, { cause: err }) };
        }
        problems.push(`${where} is missing`);
        logger.warn({ checkpointId, path: where }, `checkpoint ${checkpointId} cannot be restored: ${where} is missing; trying the previous retained checkpoint`);
        continue;
      }
      const metadata = decodeMetadata(bytes, sources.jobId, checkpointId);
      if (typeof metadata === 'string') {
        problems.push(`${where} is corrupt: ${metadata}`);
        logger.warn({ checkpointId, path: where }, `checkpoint ${checkpointId} cannot be restored: ${where} is corrupt (${metadata}); trying the previous retained checkpoint`);
        continue;
      }
      point = { checkpointId, metadata, checkpointPath: storage.checkpointUrl(checkpointId) };
    }
    const mismatch = restoreMismatch(point.metadata, sources.jobGraph);
    if (mismatch !== undefined) return { kind: 'fatal', cause: new WeirError(JobManagerErrorCode.RESTORE_MISMATCH, `cannot restore checkpoint ${checkpointId}: ${mismatch}`) };
    return { kind: 'checkpoint', point };
  }
  return {
    kind: 'fatal',
    cause: new WeirError(
      JobManagerErrorCode.NO_USABLE_CHECKPOINT,
      `none of the ${candidates.length} retained checkpoints in ${storage?.location() ?? 'JobManager memory'} can be restored (${problems.join('; ')}); the job fails rather than restart without its state`,
    ),
  };
}
