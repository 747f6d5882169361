import { describeError, isWeirError, WeirError, type LevelKeyedStateHandle, type LevelStateFile } from '@weir/common';
import { StorageErrorCode, type Storage } from '@weir/storage';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RuntimeErrorCode } from '../../errors.ts';
import type { TaskRestore } from '../types.ts';
import { fileProblem } from './read-state-handle.ts';
import { decodeChangelog } from '../../state/level/changelog/changelog-format.ts';
import type { RawOperation } from '../../state/level/level-store.ts';

/**
 * Downloads the files of a LevelDB checkpoint into `directory` under their DB names, so the
 * directory opens as the DB was: a file listed as segments is their bytes, each at its offset
 * (opening the DB replays the log they make up). Private paths resolve against the
 * checkpoint's directory, shared ones against the job's checkpoint directory
 * (TaskRestore.jobStorage).
 */
export async function downloadLevelFiles(handle: LevelKeyedStateHandle, restore: TaskRestore, directory: string, what: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  for (const file of handle.files) {
    const bytes = await readLevelFile(file, restore, what);
    const problem = fileProblem(bytes, file);
    if (problem !== undefined) {
      const storage = file.location === 'shared' ? restore.jobStorage : restore.storage;
      throw new WeirError(
        RuntimeErrorCode.CHECKPOINT_CORRUPT,
        `cannot restore ${what} from checkpoint ${restore.checkpointId}: its ${file.location} file ${file.path} in ${storage?.url ?? 'the checkpoint directory'} ${problem}; the checkpoint is corrupt, restore from an earlier one`,
      );
    }
    await writeAt(join(directory, file.name), bytes, file.offset);
  }
}

/**
 * Replays the changelog segments of a changelog checkpoint's handle, in order, a segment at a
 * time: `apply` gets each segment's writes (the DB opened from the handle's files is their base).
 */
export async function replayChangelog(handle: LevelKeyedStateHandle, restore: TaskRestore, what: string, apply: (operations: RawOperation[]) => Promise<void>): Promise<void> {
  for (const segment of handle.changelog ?? []) {
    const bytes = await readLevelFile(segment, restore, what);
    const problem = fileProblem(bytes, segment);
    let operations: RawOperation[] | undefined;
    let decodeError = '';
    if (problem === undefined) {
      try {
        operations = [...decodeChangelog(bytes)];
      } catch (err) {
        decodeError = describeError(err);
      }
    }
    if (operations === undefined) {
      throw new WeirError(
        RuntimeErrorCode.CHECKPOINT_CORRUPT,
        `cannot restore ${what} from checkpoint ${restore.checkpointId}: its changelog segment ${segment.path} in ${restore.jobStorage?.url ?? 'the job checkpoint directory'} ${problem ?? decodeError}; the checkpoint is corrupt, restore from an earlier one`,
      );
    }
    await apply(operations);
  }
}

/** The whole file, or a segment at its offset; the handle's check (snapshot-format.ts) made sure a file's segments follow one another from byte 0. */
async function writeAt(path: string, bytes: Uint8Array, offset: number | undefined): Promise<void> {
  if (offset === undefined || offset === 0) {
    await writeFile(path, bytes);
    return;
  }
  const handle = await open(path, 'r+');
  try {
    await handle.write(bytes, 0, bytes.byteLength, offset);
  } finally {
    await handle.close();
  }
}

async function readLevelFile(file: LevelStateFile, restore: TaskRestore, what: string): Promise<Uint8Array> {
  const storage: Storage | undefined = file.location === 'shared' ? restore.jobStorage : restore.storage;
  if (storage === undefined) {
    throw restoreFailed(restore, what, `its ${file.location} file ${file.path} has no directory to be read from (the task was given no ${file.location === 'shared' ? "job checkpoint directory" : 'checkpoint directory'})`);
  }
  try {
    // No more than the checkpoint recorded: a bigger file is not this state.
    return await storage.read(file.path, { maxBytes: file.size });
  } catch (err) {
    if (isWeirError(err, StorageErrorCode.STORAGE_NOT_FOUND)) {
      throw restoreFailed(restore, what, `its ${file.location} file ${file.path} does not exist in ${storage.url}; the checkpoint is incomplete (was a shared file deleted?), restore from another checkpoint`, err);
    }
    throw restoreFailed(restore, what, `reading its ${file.location} file ${file.path} in ${storage.url} failed: ${describeError(err)}`, err);
  }
}

function restoreFailed(restore: TaskRestore, what: string, detail: string, cause?: unknown): WeirError {
  return new WeirError(RuntimeErrorCode.CHECKPOINT_RESTORE_FAILED, `cannot restore ${what} from checkpoint ${restore.checkpointId}: ${detail}`, cause === undefined ? undefined : { cause });
}
