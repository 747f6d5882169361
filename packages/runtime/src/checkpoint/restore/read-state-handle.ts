import { createHash } from 'node:crypto';
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
  let bytes: Uint8Array;
  try {
    // No more than the checkpoint recorded: a bigger file is not this state.
    bytes = await storage.read(handle.path, { maxBytes: handle.size });
  } catch (err) {
    throw new WeirError(
      RuntimeErrorCode.CHECKPOINT_RESTORE_FAILED,
      `cannot restore ${what} from checkpoint ${restore.checkpointId}: reading ${handle.path} in ${storage.url} failed: ${describeError(err)}`,
      { cause: err },
    );
  }
  const problem = fileProblem(bytes, handle);
  if (problem !== undefined) throw corruptHandle(handle, restore, what, problem);
  return bytes;
}

/** Why `bytes` are not the file a handle describes (size, then SHA-256 when recorded), or undefined when they are. */
export function fileProblem(bytes: Uint8Array, expected: { readonly size: number; readonly sha256?: string }): string | undefined {
  if (bytes.byteLength !== expected.size) return `is ${bytes.byteLength} bytes, but the checkpoint says ${expected.size}`;
  if (expected.sha256 !== undefined && createHash('sha256').update(bytes).digest('hex') !== expected.sha256) {
    return 'has other content than was written (its SHA-256 differs from the one the checkpoint recorded)';
  }
  return undefined;
}

/** A handle whose bytes do not decode as what the checkpoint says they are. */
export function corruptHandle(handle: StreamStateHandle, restore: TaskRestore, what: string, detail: string): WeirError {
  const where = handle.kind === 'inline' ? 'its inline bytes' : `file ${handle.path} in ${restore.storage?.url ?? 'the checkpoint directory'}`;
  return new WeirError(
    RuntimeErrorCode.CHECKPOINT_CORRUPT,
    `cannot restore ${what} from checkpoint ${restore.checkpointId}: ${where} ${detail}; the checkpoint is corrupt, restore from an earlier one`,
  );
}
