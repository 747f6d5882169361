import type { TaskCheckpointing } from '@weir/rpc';
import type { JobCheckpointStorage } from '../checkpoint/checkpoint-storage.ts';
import type { CheckpointingSettings } from '../settings/job-settings.ts';

/** How tasks snapshot: the filesystem backend writes below the job's checkpoint directory, the memory backend inline. */
export function taskCheckpointing(settings: CheckpointingSettings, storage: JobCheckpointStorage | undefined): TaskCheckpointing {
  return {
    mode: settings.mode,
    backend: settings.backend,
    checkpointDir: settings.backend === 'memory' ? '' : (storage?.url ?? ''),
    maxInlineBytes: settings.maxInlineBytes,
    asyncSnapshots: settings.asyncSnapshots,
    incremental: settings.incremental,
    unaligned: settings.unaligned,
    alignedCheckpointTimeoutMs: settings.alignedCheckpointTimeoutMs,
    changelogEnabled: settings.changelogMaterializeIntervalMs !== undefined,
    changelogMaterializeIntervalMs: settings.changelogMaterializeIntervalMs ?? 0,
  };
}
