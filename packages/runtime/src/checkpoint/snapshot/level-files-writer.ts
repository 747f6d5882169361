import { SHARED_STATE_DIR, type LevelKeyedStateHandle, type LevelStateFile } from '@weir/common';
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LevelFilesSnapshot } from '../../state/keyed-state-backend.ts';
import type { SharedFile } from '../../state/level/level-keyed-state-backend.ts';
import { isTableFile } from '../../state/level/snapshot-files.ts';
import type { TaskCheckpointing } from '../types.ts';
import type { SnapshotTarget } from './snapshot-target.ts';
import { sha256Hex, writeSnapshotFile } from './state-handle-writer.ts';

export interface WrittenLevelFiles {
  readonly handle: LevelKeyedStateHandle;
  /** Bytes this checkpoint uploaded (an incremental one skips the files it refers to). */
  readonly uploadedBytes: number;
}

/** Files uploaded at the same time. */
const UPLOADS_AT_ONCE = 4;

/**
 * The asynchronous part of a LevelDB checkpoint: uploads the files the synchronous part
 * took. Full: every file is private, `chk-<n>/<operatorId>-<subtask>-level/<file>`.
 * Incremental: table files a confirmed checkpoint uploaded are referred to, new ones go to
 * `shared/<operatorId>-<subtask>-<uuid>-<file>` (relative to the job's checkpoint
 * directory); CURRENT, the MANIFEST and logs stay private. Files go UPLOADS_AT_ONCE at a time;
 * the handle lists them in the snapshot's order. The local copy is removed after.
 */
export async function writeLevelFiles(
  settings: TaskCheckpointing,
  target: SnapshotTarget,
  prefix: string,
  snapshot: LevelFilesSnapshot,
  what: string,
): Promise<WrittenLevelFiles> {
  const files: LevelStateFile[] = new Array<LevelStateFile>(snapshot.files.length);
  const shared = new Map<string, SharedFile>();
  let uploadedBytes = 0;
  const upload = async (index: number): Promise<void> => {
    const file = snapshot.files[index]!;
    const local = join(snapshot.directory, file.name);
    if (snapshot.confirmed !== undefined && isTableFile(file.name)) {
      const known = snapshot.confirmed.get(file.name);
      if (known !== undefined && known.size === file.size) {
        files[index] = { name: file.name, location: 'shared', ...known };
        shared.set(file.name, known);
        return;
      }
      const path = `${SHARED_STATE_DIR}/${prefix}-${randomUUID()}-${file.name}`;
      const bytes = await readFile(local);
      await writeSnapshotFile({ ...target, storage: settings.storage, prefix: '' }, path, bytes, what);
      const uploaded = { path, size: file.size, sha256: sha256Hex(bytes) };
      files[index] = { name: file.name, location: 'shared', ...uploaded };
      shared.set(file.name, uploaded);
      uploadedBytes += file.size;
      return;
    }
    const path = `${prefix}-level/${file.name}`;
    const bytes = await readFile(local);
    await writeSnapshotFile(target, `${target.prefix}${path}`, bytes, what);
    files[index] = { name: file.name, location: 'private', path, size: file.size, sha256: sha256Hex(bytes) };
    uploadedBytes += file.size;
  };
  try {
    // A few files at a time: an object store's latency per request, not its bandwidth, bounds one upload after another.
    // After a failure the others stop at their next file, and all have stopped before the local copy goes.
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      try {
        while (!failed && next < snapshot.files.length) await upload(next++);
      } catch (err) {
        failed = true;
        throw err;
      }
    };
    const outcomes = await Promise.allSettled(Array.from({ length: Math.min(UPLOADS_AT_ONCE, snapshot.files.length) }, worker));
    const failure = outcomes.find((o) => o.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  } finally {
    await rm(snapshot.directory, { recursive: true, force: true });
  }
  if (snapshot.confirmed !== undefined) snapshot.uploaded(shared);
  return { handle: { backend: 'level', keyGroupRange: snapshot.keyGroupRange, files, states: snapshot.states }, uploadedBytes };
}
