import { createHash } from 'node:crypto';
import { CHECKPOINT_OPTIONS, CheckpointFailureReason, describeError, type StreamStateHandle } from '@weir/common';
import { CheckpointDeclinedError } from '../checkpoint-declined.ts';
import type { TaskCheckpointing } from '../types.ts';
import { snapshotTarget, type SnapshotTarget } from './snapshot-target.ts';

/**
 * Puts the bytes of one state handle where the snapshot keeps them: inline in the
 * acknowledgement (memory backend checkpoints, up to its limit) or in a file: `chk-<n>/<name>`
 * below the job's checkpoint directory, or `<name>` in a savepoint's directory. Handle
 * paths are relative to the directory that holds `_metadata`.
 */
export async function writeStateHandle(
  settings: TaskCheckpointing,
  checkpointId: number,
  fileName: string,
  bytes: Uint8Array,
  /** "keyed state of Count (1/2)", for messages. */
  what: string,
  target: SnapshotTarget = snapshotTarget(settings, checkpointId, CHECKPOINT_OPTIONS),
): Promise<StreamStateHandle> {
  if (target.inline) {
    if (bytes.byteLength > settings.maxInlineBytes) {
      throw new CheckpointDeclinedError(
        CheckpointFailureReason.STATE_TOO_LARGE,
        `${what} in checkpoint ${checkpointId} is ${bytes.byteLength} bytes, over the memory state backend's limit of ` +
          `${settings.maxInlineBytes} bytes per state; use FsStateBackend (state files in a checkpoint directory) or raise MemoryStateBackend's maxStateSize`,
      );
    }
    return { kind: 'inline', data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), size: bytes.byteLength };
  }
  await writeSnapshotFile(target, `${target.prefix}${fileName}`, bytes, what);
  return { kind: 'file', path: fileName, size: bytes.byteLength, sha256: sha256Hex(bytes) };
}

/** SHA-256 in hex of a state file's bytes, recorded in its handle so a restore can tell a corrupt file from the one written. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Writes one file of a snapshot at `path` in the target's storage; a failure declines the snapshot (STORAGE_FAILURE). */
export async function writeSnapshotFile(target: SnapshotTarget, path: string, bytes: Uint8Array, what: string): Promise<void> {
  const storage = target.storage;
  if (storage === undefined) {
    throw new CheckpointDeclinedError(
      CheckpointFailureReason.STORAGE_FAILURE,
      `${what} in ${target.what} has no checkpoint storage to go to: the filesystem and LevelDB backends need a checkpoint directory ` +
        `(FsStateBackend(path), LevelStateBackend(path) or state.checkpoints.dir)`,
    );
  }
  try {
    await storage.write(path, bytes);
  } catch (err) {
    throw new CheckpointDeclinedError(
      CheckpointFailureReason.STORAGE_FAILURE,
      `writing ${what} of ${target.what} to ${path} in ${storage.url} failed: ${describeError(err)}`,
      { cause: err },
    );
  }
}
