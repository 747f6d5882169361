import { checkpointDirName, CheckpointFailureReason, describeError, type StreamStateHandle } from '@weir/common';
import { CheckpointDeclinedError } from '../checkpoint-declined.ts';
import type { TaskCheckpointing } from '../types.ts';

/**
 * Puts the bytes of one state handle where the backend keeps them: inline in the
 * acknowledgement (memory backend, up to its limit) or in a file `chk-<n>/<name>` below the
 * job's checkpoint directory (filesystem backend); handle paths are relative to `chk-<n>/`.
 */
export async function writeStateHandle(
  settings: TaskCheckpointing,
  checkpointId: number,
  fileName: string,
  bytes: Uint8Array,
  /** "keyed state of Count (1/2)", for messages. */
  what: string,
): Promise<StreamStateHandle> {
  if (settings.backend === 'memory') {
    if (bytes.byteLength > settings.maxInlineBytes) {
      throw new CheckpointDeclinedError(
        CheckpointFailureReason.STATE_TOO_LARGE,
        `${what} in checkpoint ${checkpointId} is ${bytes.byteLength} bytes, over the memory state backend's limit of ` +
          `${settings.maxInlineBytes} bytes per state; use FsStateBackend (state files in a checkpoint directory) or raise MemoryStateBackend's maxStateSize`,
      );
    }
    return { kind: 'inline', data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), size: bytes.byteLength };
  }
  const storage = settings.storage;
  const path = `${checkpointDirName(checkpointId)}/${fileName}`;
  if (storage === undefined) {
    throw new CheckpointDeclinedError(
      CheckpointFailureReason.STORAGE_FAILURE,
      `${what} in checkpoint ${checkpointId} has no checkpoint storage to go to: the filesystem backend needs a checkpoint directory ` +
        `(FsStateBackend(path) or state.checkpoints.dir)`,
    );
  }
  try {
    await storage.write(path, bytes);
  } catch (err) {
    throw new CheckpointDeclinedError(
      CheckpointFailureReason.STORAGE_FAILURE,
      `writing ${what} of checkpoint ${checkpointId} to ${path} in ${storage.url} failed: ${describeError(err)}`,
      { cause: err },
    );
  }
  return { kind: 'file', path: fileName, size: bytes.byteLength };
}
