import { SHARED_STATE_DIR, type LevelStateFile } from '@weir/common';
import { randomUUID } from 'node:crypto';
import type { LevelChangelogSnapshot } from '../../state/keyed-state-backend.ts';
import { segmentName } from '../../state/level/changelog/state-changelog.ts';
import type { TaskCheckpointing } from '../types.ts';
import type { WrittenLevelFiles } from './level-files-writer.ts';
import type { SnapshotTarget } from './snapshot-target.ts';
import { sha256Hex, writeSnapshotFile } from './state-handle-writer.ts';

/**
 * The asynchronous part of a changelog checkpoint: uploads the segments no confirmed
 * checkpoint uploaded, each to `shared/<operatorId>-<subtask>-<uuid>-changelog-<n>`, and names
 * the materialized base and every segment since. What it uploaded: those segments, and the
 * materialization's uploads when this is the first checkpoint on its base.
 */
export async function writeLevelChangelog(
  settings: Pick<TaskCheckpointing, 'storage'>,
  target: SnapshotTarget,
  prefix: string,
  snapshot: LevelChangelogSnapshot,
  what: string,
): Promise<WrittenLevelFiles> {
  const uploads = new Map<number, LevelStateFile>();
  const changelog: LevelStateFile[] = [];
  let uploadedBytes = snapshot.materializedBytes;
  for (const segment of snapshot.segments) {
    if (segment.upload !== undefined) {
      changelog.push(segment.upload);
      continue;
    }
    const bytes = segment.bytes!;
    const name = segmentName(segment.sequence);
    const path = `${SHARED_STATE_DIR}/${prefix}-${randomUUID()}-${name}`;
    await writeSnapshotFile({ ...target, storage: settings.storage, prefix: '' }, path, bytes, what);
    const upload: LevelStateFile = { name, location: 'shared', path, size: bytes.byteLength, sha256: sha256Hex(bytes) };
    uploads.set(segment.sequence, upload);
    changelog.push(upload);
    uploadedBytes += bytes.byteLength;
  }
  snapshot.uploaded(uploads);
  return {
    handle: { backend: 'level', keyGroupRange: snapshot.keyGroupRange, files: snapshot.base, changelog, states: snapshot.states, baseCheckpointId: snapshot.baseCheckpointId },
    uploadedBytes,
  };
}
