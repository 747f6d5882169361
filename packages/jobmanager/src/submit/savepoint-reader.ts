import type { JobGraph } from '@weir/api';
import { METADATA_FILE, WeirError, decodeCheckpointMetadata, isWeirError, type Logger } from '@weir/common';
import { StorageErrorCode, displayLocation, parentLocation, type Storage, type StorageOpener } from '@weir/storage';
import type { InitialRestore } from '../checkpoint/restore-point.ts';
import { assignState } from '../checkpoint/state-assignment/assign-state.ts';
import { handleBytesIn } from '../checkpoint/state-assignment/handle-bytes.ts';
import { operatorLabel } from '../checkpoint/state-assignment/operator-label.ts';
import { findBrokenFile, referencedFiles } from '../checkpoint/state-assignment/state-files.ts';
import { storageProbe } from '../checkpoint/state-assignment/storage-probe.ts';
import { JobManagerErrorCode } from '../errors.ts';

export interface SavepointRequest {
  /** A savepoint or retained checkpoint directory (or its `_metadata` file): local path, file:// or s3:// URL. */
  readonly path: string;
  readonly allowNonRestoredState: boolean;
  /** state.metadata.max-size: a bigger `_metadata` is refused before it is read. */
  readonly metadataMaxBytes: number;
}

/**
 * `weir run -s <path> [-n]`: reads the savepoint, checks it whole (its `_metadata`, and that
 * every file it references is there with the size it was written with) and maps its state
 * onto `jobGraph`, before anything of the job exists. Throws SAVEPOINT_NOT_FOUND,
 * INVALID_SAVEPOINT, UNMAPPED_STATE or RESTORE_MISMATCH; reads only, deletes nothing.
 */
export async function readInitialRestore(request: SavepointRequest, jobGraph: JobGraph, open: StorageOpener, logger: Logger): Promise<InitialRestore> {
  const dirPath = request.path.replace(/\/+$/, '').replace(new RegExp(`/${METADATA_FILE}$`), '');
  const directory = open(dirPath);
  let parent: Storage | undefined;
  try {
    const shown = displayLocation(directory.url);
    const metadata = decodeCheckpointMetadata(await readMetadata(directory, shown, request.metadataMaxBytes));
    if (typeof metadata === 'string') {
      throw new WeirError(JobManagerErrorCode.INVALID_SAVEPOINT, `${shown} is not a savepoint: its ${METADATA_FILE} cannot be read as checkpoint metadata (${metadata})`);
    }
    const refs = referencedFiles(metadata);
    // Shared files of an incremental retained checkpoint sit beside its chk-<n> directory.
    if (refs.some((r) => r.location === 'shared')) parent = open(parentOf(directory.url));
    const broken = await findBrokenFile(refs, storageProbe({ checkpoint: directory, job: parent }, true), true);
    if (broken !== undefined) {
      throw new WeirError(JobManagerErrorCode.INVALID_SAVEPOINT, `savepoint ${shown} is incomplete: ${broken}; restore from a complete copy of it`);
    }
    const assignment = await assignState({
      metadata,
      jobGraph,
      allowNonRestoredState: request.allowNonRestoredState,
      source: `savepoint ${shown}`,
      readHandle: handleBytesIn(directory),
    });
    if (assignment.skipped.length > 0) {
      logger.warn(
        { savepoint: shown, skipped: assignment.skipped.map((op) => op.operatorId) },
        `not restoring the state of ${assignment.skipped.map(operatorLabel).join(', ')} from savepoint ${shown}: the job has no such operator (allowNonRestoredState)`,
      );
    }
    logger.info({ savepoint: shown, checkpointId: metadata.checkpointId, fromJob: metadata.jobId }, `restoring from savepoint ${shown} (checkpoint ${metadata.checkpointId} of job ${metadata.jobName})`);
    return {
      point: { checkpointId: metadata.checkpointId, metadata, checkpointPath: directory.url, assignment },
      allowNonRestoredState: request.allowNonRestoredState,
    };
  } finally {
    directory.close();
    parent?.close();
  }
}

async function readMetadata(directory: Storage, shown: string, maxBytes: number): Promise<Uint8Array> {
  try {
    return await directory.read(METADATA_FILE, { maxBytes });
  } catch (err) {
    if (isWeirError(err, StorageErrorCode.STORAGE_TOO_LARGE) || isWeirError(err, StorageErrorCode.STORAGE_NOT_REGULAR_FILE)) {
      throw new WeirError(JobManagerErrorCode.INVALID_SAVEPOINT, `${shown} is not a savepoint: ${err.message}${isWeirError(err, StorageErrorCode.STORAGE_TOO_LARGE) ? ' (state.metadata.max-size)' : ''}`, { cause: err });
    }
    if (!isWeirError(err, StorageErrorCode.STORAGE_NOT_FOUND)) throw err;
  }
  const files = await directory.list('').catch(() => []);
  if (files.length === 0) {
    throw new WeirError(JobManagerErrorCode.SAVEPOINT_NOT_FOUND, `no savepoint at ${shown}: the directory does not exist or is empty; give the directory of a savepoint or retained checkpoint (the one holding ${METADATA_FILE})`);
  }
  throw new WeirError(
    JobManagerErrorCode.SAVEPOINT_NOT_FOUND,
    `${shown} is not a savepoint: it has no ${METADATA_FILE} (an incomplete checkpoint has none); give the directory of a savepoint or completed retained checkpoint, e.g. <checkpoint dir>/<jobId>/chk-<n>`,
  );
}

/** The job directory above a retained checkpoint's `chk-<n>`, where its shared files are. */
function parentOf(url: string): string {
  const parent = parentLocation(url);
  if (parent === undefined) {
    throw new WeirError(JobManagerErrorCode.INVALID_SAVEPOINT, `retained checkpoint ${url} refers to shared files of its job directory, but it has no parent directory to find them in`);
  }
  return parent;
}
