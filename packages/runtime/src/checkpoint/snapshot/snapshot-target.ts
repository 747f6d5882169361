import { checkpointDirName, CheckpointFailureReason, describeError, type CheckpointOptions } from '@weir/common';
import type { Storage } from '@weir/storage';
import { CheckpointDeclinedError } from '../checkpoint-declined.ts';
import type { TaskCheckpointing } from '../types.ts';

/**
 * Where one snapshot's files go: a checkpoint's into `chk-<n>/` below the job's checkpoint
 * directory (or inline, on the memory backend); a savepoint's into its own directory
 * (CheckpointOptions.targetLocation), whatever the backend, so it is self-contained.
 * Handle paths are relative to the directory that will hold `_metadata`.
 */
export interface SnapshotTarget {
  /** Undefined only when the state goes inline. */
  readonly storage: Storage | undefined;
  /** Put before a handle's path to get the file's path in `storage`. */
  readonly prefix: string;
  readonly inline: boolean;
  /** "checkpoint 7" or "savepoint 7", for messages. */
  readonly what: string;
}

export function snapshotTarget(settings: TaskCheckpointing, checkpointId: number, options: CheckpointOptions): SnapshotTarget {
  if (options.type === 'savepoint' && options.targetLocation !== undefined) {
    return { storage: openSnapshotStorage(settings, options.targetLocation, checkpointId), prefix: '', inline: false, what: `savepoint ${checkpointId}` };
  }
  return { storage: settings.storage, prefix: `${checkpointDirName(checkpointId)}/`, inline: settings.backend === 'memory', what: `checkpoint ${checkpointId}` };
}

function openSnapshotStorage(settings: TaskCheckpointing, url: string, checkpointId: number): Storage {
  try {
    return settings.openStorage(url);
  } catch (err) {
    throw new CheckpointDeclinedError(CheckpointFailureReason.STORAGE_FAILURE, `savepoint ${checkpointId} cannot open its directory ${url}: ${describeError(err)}`, { cause: err });
  }
}
