import type { JobGraph } from '@weir/api';
import { WeirError, decodeCheckpointMetadata, describeError, isWeirError, type CheckpointMetadata, type Logger } from '@weir/common';
import { StorageErrorCode } from '@weir/storage';
import { JobManagerErrorCode } from '../errors.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import type { CompletedCheckpoint, CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import { assignState, type StateAssignment } from './state-assignment/assign-state.ts';
import { handleBytesIn } from './state-assignment/handle-bytes.ts';
import { findBrokenFile, referencedFiles } from './state-assignment/state-files.ts';
import { storageProbe } from './state-assignment/storage-probe.ts';

/** The checkpoint a new attempt starts from. */
export interface RestorePoint {
  readonly checkpointId: number;
  readonly metadata: CheckpointMetadata;
  /** URL of the directory holding the checkpoint's `_metadata`; empty when it lives in the JobManager's memory. */
  readonly checkpointPath: string;
  /** The state every subtask of the job restores from it. */
  readonly assignment: StateAssignment;
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
  /** The savepoint the job was submitted with: what attempts start from until a checkpoint completes. */
  readonly initial: InitialRestore | undefined;
  /** Retained checkpoints a task found corrupt while restoring them, with why: skipped. */
  readonly corrupt?: ReadonlyMap<number, string>;
}

/** Why one candidate cannot be restored: skip it for an older one, or stop looking. */
type CandidateResult =
  | RestorePoint
  /** `skip` goes into the final error, `warning` (default: the same) into the log line. */
  | { readonly skip: string; readonly warning?: string }
  | { readonly outcome: RestoreOutcome };

/**
 * The latest retained checkpoint that reads back whole: its `_metadata` re-read from storage
 * (that file and not the JobManager's memory is what a checkpoint is) and every state file it
 * references (private and shared) present. A missing or corrupt one is skipped with a warning
 * naming what is wrong, for the one before; with none completed, the savepoint the job was
 * submitted with, else nothing.
 */
export async function loadRestoreOutcome(sources: RestoreSources): Promise<RestoreOutcome> {
  const { store, storage, logger, initial } = sources;
  const candidates = store.newestFirst();
  if (candidates.length === 0) return initial === undefined ? { kind: 'fresh' } : { kind: 'checkpoint', point: initial.point };
  const problems: string[] = [];
  for (const candidate of candidates) {
    const result = await loadCandidate(sources, candidate);
    if ('outcome' in result) return result.outcome;
    if ('skip' in result) {
      problems.push(result.skip);
      logger.warn({ checkpointId: candidate.checkpointId }, `checkpoint ${candidate.checkpointId} cannot be restored: ${result.warning ?? result.skip}; trying the previous retained checkpoint`);
      continue;
    }
    if (candidate !== candidates[0]) {
      logger.warn(
        { checkpointId: candidate.checkpointId, latest: candidates[0]!.checkpointId },
        `restoring checkpoint ${candidate.checkpointId}, older than the latest completed one (${candidates[0]!.checkpointId}): what sinks committed after it is written again`,
      );
    }
    return { kind: 'checkpoint', point: result };
  }
  return {
    kind: 'fatal',
    cause: new WeirError(
      JobManagerErrorCode.NO_USABLE_CHECKPOINT,
      `none of the ${candidates.length} retained checkpoints in ${storage?.location() ?? 'JobManager memory'} can be restored (${problems.join('; ')}); the job fails rather than restart without its state`,
    ),
  };
}

async function loadCandidate(sources: RestoreSources, candidate: CompletedCheckpoint): Promise<CandidateResult> {
  const { storage } = sources;
  const { checkpointId } = candidate;
  const corrupt = sources.corrupt?.get(checkpointId);
  if (corrupt !== undefined) return { skip: `checkpoint ${checkpointId} is corrupt (${corrupt})`, warning: `a task found its state corrupt (${corrupt})` };
  const source = `checkpoint ${checkpointId}`;
  let metadata = candidate.metadata;
  // A stop-with-savepoint lives in its own directory, which the job's storage cannot read:
  // it completed in this JobManager's lifetime, so its metadata in memory is what was written.
  const elsewhere = storage !== undefined && candidate.externalPath !== '' && candidate.externalPath !== storage.checkpointUrl(checkpointId);
  if (storage !== undefined && !elsewhere) {
    const where = storage.metadataLocation(checkpointId);
    let bytes: Uint8Array;
    try {
      bytes = await storage.readMetadata(checkpointId);
    } catch (err) {
      if (!isWeirError(err, StorageErrorCode.STORAGE_NOT_FOUND)) return { outcome: retry(err, `cannot read ${where} to restore ${source}`) };
      return { skip: `${where} is missing` };
    }
    const decoded = decodeCheckpointMetadata(bytes, { jobId: sources.jobId, checkpointId });
    if (typeof decoded === 'string') return { skip: `${where} is corrupt: ${decoded}`, warning: `${where} is corrupt (${decoded})` };
    metadata = decoded;
    const dirs = { checkpoint: storage.checkpointDirectory(checkpointId), job: storage.jobDirectory };
    let broken: string | undefined;
    try {
      broken = await findBrokenFile(referencedFiles(metadata), storageProbe(dirs, false), false);
    } catch (err) {
      return { outcome: retry(err, `cannot check the state files of ${source} in ${storage.location()}`) };
    }
    if (broken !== undefined) return { skip: `${source}: ${broken}`, warning: broken };
  }
  let assignment: StateAssignment;
  try {
    assignment = await assignState({
      metadata,
      jobGraph: sources.jobGraph,
      allowNonRestoredState: false,
      source,
      readHandle: handleBytesIn(elsewhere ? undefined : storage?.checkpointDirectory(checkpointId)),
    });
  } catch (err) {
    if (isWeirError(err, JobManagerErrorCode.UNMAPPED_STATE) || isWeirError(err, JobManagerErrorCode.RESTORE_MISMATCH)) return { outcome: { kind: 'fatal', cause: err } };
    if (isWeirError(err, JobManagerErrorCode.INVALID_SAVEPOINT) || isWeirError(err, StorageErrorCode.STORAGE_NOT_FOUND)) return { skip: describeError(err) };
    return { outcome: retry(err, `cannot read the state of ${source}`) };
  }
  return { checkpointId, metadata, checkpointPath: elsewhere ? candidate.externalPath : (storage?.checkpointUrl(checkpointId) ?? ''), assignment };
}

function retry(err: unknown, what: string): RestoreOutcome {
  return { kind: 'retry', cause: new WeirError(isWeirError(err) ? err.code : StorageErrorCode.STORAGE_FAILURE, `${what}: ${describeError(err)}`, { cause: err }) };
}
