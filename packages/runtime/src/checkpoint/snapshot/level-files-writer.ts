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

/**
 * The asynchronous part of a LevelDB checkpoint: uploads the files the synchronous part
 * took. Full: every file is private, `chk-<n>/<operatorId>-<subtask>-level/<file>`.
 * Incremental: table files a confirmed checkpoint uploaded are referred to, new ones go to
 * `shared/<operatorId>-<subtask>-<uuid>-<file>` (relative to the job's checkpoint
 * directory); CURRENT, the MANIFEST and logs stay private. The local copy is removed after.
 */
export async function writeLevelFiles(
  settings: TaskCheckpointing,
  target: SnapshotTarget,
  prefix: string,
  snapshot: LevelFilesSnapshot,
  what: string,
): Promise<WrittenLevelFiles> {
  const files: LevelStateFile[] = [];
  const shared = new Map<string, SharedFile>();
  let uploadedBytes = 0;
  try {
    for (const file of snapshot.files) {
      const local = join(snapshot.directory, file.name);
      if (snapshot.confirmed !== undefined && isTableFile(file.name)) {
        const known = snapshot.confirmed.get(file.name);
        if (known !== undefined && known.size === file.size) {
          files.push({ name: file.name, location: 'shared', ...known });
          shared.set(file.name, known);
          continue;
        }
        const path = `${SHARED_STATE_DIR}/${prefix}-${randomUUID()}-${file.name}`;
        const bytes = await readFile(local);
        await writeSnapshotFile({ ...target, storage: settings.storage, prefix: '' }, path, bytes, what);
        const uploaded = { path, size: file.size, sha256: sha256Hex(bytes) };
        files.push({ name: file.name, location: 'shared', ...uploaded });
        shared.set(file.name, uploaded);
        uploadedBytes += file.size;
        continue;
      }
      const path = `${prefix}-level/${file.name}`;
      const bytes = await readFile(local);
      await writeSnapshotFile(target, `${target.prefix}${path}`, bytes, what);
      files.push({ name: file.name, location: 'private', path, size: file.size, sha256: sha256Hex(bytes) });
      uploadedBytes += file.size;
    }
  } finally {
    await rm(snapshot.directory, { recursive: true, force: true });
  }
  if (snapshot.confirmed !== undefined) snapshot.uploaded(shared);
  return { handle: { backend: 'level', keyGroupRange: snapshot.keyGroupRange, files, states: snapshot.states }, uploadedBytes };
}
