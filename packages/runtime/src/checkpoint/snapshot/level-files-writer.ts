import { SHARED_STATE_DIR, type LevelKeyedStateHandle, type LevelStateFile } from '@weir/common';
import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LevelFilesSnapshot } from '../../state/keyed-state-backend.ts';
import { baselineSegments } from '../../state/level/baseline.ts';
import { isAppendedFile, isTableFile, type SnapshotFile } from '../../state/level/snapshot-files.ts';
import type { TaskCheckpointing } from '../types.ts';
import type { SnapshotTarget } from './snapshot-target.ts';
import { sha256Hex, writeSnapshotFile } from './state-handle-writer.ts';

export interface WrittenLevelFiles {
  readonly handle: LevelKeyedStateHandle;
  /** Bytes this checkpoint uploaded (an incremental one skips what it refers to). */
  readonly uploadedBytes: number;
}

/** Files uploaded at the same time. */
const UPLOADS_AT_ONCE = 4;

/**
 * The asynchronous part of a LevelDB checkpoint: uploads the files the checkpoint linked.
 * Full: every file is private, `chk-<n>/<operatorId>-<subtask>-level/<file>`. Incremental:
 * into `shared/<operatorId>-<subtask>-<uuid>-<file>` (relative to the job's checkpoint
 * directory), table files a confirmed checkpoint did not upload, and of each log and the
 * MANIFEST the bytes appended since the confirmed checkpoint's segments of it, as one more
 * segment (the file is listed as the confirmed segments, then the new one); CURRENT stays
 * private. Files go UPLOADS_AT_ONCE at a time; the handle lists them in the snapshot's order.
 * The local links are removed after.
 */
export async function writeLevelFiles(
  settings: Pick<TaskCheckpointing, 'storage'>,
  target: SnapshotTarget,
  prefix: string,
  snapshot: LevelFilesSnapshot,
  what: string,
): Promise<WrittenLevelFiles> {
  const incremental = snapshot.confirmed !== undefined;
  const shared = new Map<string, readonly LevelStateFile[]>();
  let uploadedBytes = 0;
  let entries: LevelStateFile[][] = [];
  const uploadShared = async (file: SnapshotFile, start: number): Promise<LevelStateFile> => {
    const bytes = await readRange(join(snapshot.directory, file.name), start, file.size);
    const path = `${SHARED_STATE_DIR}/${prefix}-${randomUUID()}-${file.name}`;
    await writeSnapshotFile({ ...target, storage: settings.storage, prefix: '' }, path, bytes, what);
    uploadedBytes += bytes.byteLength;
    return { name: file.name, location: 'shared', path, size: bytes.byteLength, sha256: sha256Hex(bytes) };
  };
  const upload = async (file: SnapshotFile): Promise<LevelStateFile[]> => {
    if (file.shared !== undefined) return [file.shared];
    if (incremental && isAppendedFile(file.name)) {
      const { segments, covered } = baselineSegments(snapshot.confirmed, file.name, file.size);
      if (covered === file.size && segments.length !== 0) return [...segments];
      return [...segments, { ...(await uploadShared(file, covered)), offset: covered }];
    }
    if ((incremental && isTableFile(file.name)) || snapshot.everyFileShared === true) return [await uploadShared(file, 0)];
    const path = `${prefix}-level/${file.name}`;
    const bytes = await readRange(join(snapshot.directory, file.name), 0, file.size);
    await writeSnapshotFile(target, `${target.prefix}${path}`, bytes, what);
    uploadedBytes += bytes.byteLength;
    return [{ name: file.name, location: 'private', path, size: bytes.byteLength, sha256: sha256Hex(bytes) }];
  };
  try {
    const files = await snapshot.files;
    entries = new Array<LevelStateFile[]>(files.length);
    // A few files at a time: an object store's latency per request, not its bandwidth, bounds one upload after another.
    // After a failure the others stop at their next file, and all have stopped before the local links go.
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      try {
        while (!failed && next < files.length) {
          const index = next++;
          entries[index] = await upload(files[index]!);
        }
      } catch (err) {
        failed = true;
        throw err;
      }
    };
    const outcomes = await Promise.allSettled(Array.from({ length: Math.min(UPLOADS_AT_ONCE, files.length) }, worker));
    const failure = outcomes.find((o) => o.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  } finally {
    await rm(snapshot.directory, { recursive: true, force: true });
  }
  for (const fileEntries of entries) {
    if (fileEntries[0]?.location === 'shared') shared.set(fileEntries[0].name, fileEntries);
  }
  if (incremental) snapshot.uploaded(shared);
  const base = incremental ? { baseCheckpointId: snapshot.baseCheckpointId } : {};
  return { handle: { backend: 'level', keyGroupRange: snapshot.keyGroupRange, files: entries.flat(), states: snapshot.states, ...base }, uploadedBytes };
}

/** Bytes [start, end) of a file: a linked log or MANIFEST may have grown past the snapshot's end since. */
async function readRange(path: string, start: number, end: number): Promise<Buffer> {
  const bytes = Buffer.alloc(end - start);
  const handle = await open(path, 'r');
  try {
    for (let at = 0; at < bytes.byteLength; ) {
      const { bytesRead } = await handle.read(bytes, at, bytes.byteLength - at, start + at);
      if (bytesRead === 0) throw new Error(`${path} ends at byte ${start + at}, before the ${end} bytes the checkpoint took of it`);
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return bytes;
}
