import { checkpointDirName, describeError, WeirError, type StreamStateHandle } from '@weir/common';
import { RuntimeErrorCode } from '../../errors.ts';
import type { TaskRestore } from '../types.ts';

/** The bytes of a restored state handle: decoded from the inline base64, or read from the checkpoint directory. */
export async function readStateHandle(handle: StreamStateHandle, restore: TaskRestore, what: string): Promise<Uint8Array> {
  if (handle.kind === 'inline') return new Uint8Array(Buffer.from(handle.data, 'base64'));
  const file = `${checkpointDirName(restore.checkpointId)}/${handle.path}`;
  const storage = restore.storage;
  if (storage === undefined) {
    throw new WeirError(
      RuntimeErrorCode.CHECKPOINT_RESTORE_FAILED,
      `cannot restore ${what} from checkpoint ${restore.checkpointId}: its state is in file ${file}, but the task was given no checkpoint directory to read it from`,
    );
  }
  try {
    return await storage.read(handle.path);
  } catch (err) {
    throw new WeirError(
      RuntimeErrorCode.CHECKPOINT_RESTORE_FAILED,
      `cannot restore ${what} from checkpoint ${restore.checkpointId}: reading ${handle.path} in ${storage.url} failed: ${describeError(err)}`,
      { cause: err },
    );
  }
}

/** A handle whose bytes do not decode as what the checkpoint says they are. */
export function corruptHandle(handle: StreamStateHandle, restore: TaskRestore, what: string, detail: string): WeirError {
  const where = handle.kind === 'inline' ? 'its inline bytes' : `file ${handle.path} in ${restore.storage?.url ?? 'the checkpoint directory'}`;
  return new WeirError(
    RuntimeErrorCode.CHECKPOINT_RESTORE_FAILED,
    `cannot restore ${what} from checkpoint ${restore.checkpointId}: ${where} ${detail}; the checkpoint is corrupt, restore from an earlier one`,
  );
}
