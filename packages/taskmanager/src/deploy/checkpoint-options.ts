import { WeirError } from '@weir/common';
import { decodeRestoreShare, type DeployTask__Output } from '@weir/rpc';
import { HEAP_STATE_BACKEND, type LevelTuning, type TaskCheckpointing, type TaskRestore, type TaskStateBackend } from '@weir/runtime';
import { parentLocation, type Storage, type StoragePool } from '@weir/storage';
import { TaskManagerErrorCode } from '../errors.ts';

const MODES = ['EXACTLY_ONCE', 'AT_LEAST_ONCE'] as const;
const BACKENDS = ['memory', 'filesystem', 'level'] as const;
const KEYED_BACKENDS = ['heap', 'level'] as const;

/**
 * DeployTask.checkpointing as the runtime takes it, or undefined when the job takes no
 * checkpoints (no message, or an empty mode). A checkpoint directory opens its Storage from
 * the pool; a URL openStorage does not accept throws INVALID_STORAGE_URL.
 */
export function toTaskCheckpointing(message: DeployTask__Output, storages: StoragePool): TaskCheckpointing | undefined {
  const checkpointing = message.checkpointing;
  if (checkpointing === null || checkpointing.mode === '') return undefined;
  const mode = oneOf(MODES, checkpointing.mode, 'checkpointing mode');
  const backend = oneOf(BACKENDS, checkpointing.backend, 'state backend');
  if (backend !== 'memory' && checkpointing.checkpointDir === '') {
    throw invalid(`asks for the ${backend} state backend but names no checkpoint directory; the JobManager must send the job's checkpoint directory`);
  }
  return {
    mode,
    backend,
    storage: checkpointing.checkpointDir === '' ? undefined : storages.open(checkpointing.checkpointDir),
    maxInlineBytes: checkpointing.maxInlineBytes,
    asyncSnapshots: checkpointing.asyncSnapshots,
    incremental: checkpointing.incremental,
    unaligned: checkpointing.unaligned,
    alignedCheckpointTimeoutMs: checkpointing.alignedCheckpointTimeoutMs,
    ...(checkpointing.changelogEnabled ? { changelog: { materializeIntervalMs: checkpointing.changelogMaterializeIntervalMs } } : {}),
    openStorage: (url) => storages.open(url),
  };
}

/**
 * DeployTask.keyed_state_backend as the runtime takes it: LevelDB below this TaskManager's
 * local state directory with its LevelDB options, or the heap (also when empty). A LevelDB
 * snapshot (checkpointing.backend level) of heap state cannot be taken, so that pair throws.
 */
export function toTaskStateBackend(message: DeployTask__Output, localStateDir: string, levelTuning?: LevelTuning): TaskStateBackend {
  const kind = message.keyedStateBackend === '' ? 'heap' : oneOf(KEYED_BACKENDS, message.keyedStateBackend, 'keyed state backend');
  if (kind === 'heap' && message.checkpointing?.backend === 'level') {
    throw invalid('asks for LevelDB checkpoints of heap state; the JobManager must send keyed_state_backend level with checkpointing backend level');
  }
  return kind === 'heap' ? HEAP_STATE_BACKEND : { kind, localStateDir, ...(levelTuning === undefined ? {} : { levelTuning }) };
}

/**
 * DeployTask.restore as the runtime takes it, or undefined for a fresh start. The checkpoint's
 * Storage is a child of the job's checkpoint directory when it lies below it, so restores share
 * that directory's Storage instead of adding one per checkpoint.
 */
export function toTaskRestore(message: DeployTask__Output, storages: StoragePool): TaskRestore | undefined {
  if (message.restore === null) return undefined;
  const share = decodeRestoreShare(message.restore);
  if (typeof share === 'string') {
    throw invalid(`carries restore state of checkpoint ${message.restore.checkpointId} that is ${share}; it must be a TaskStateSnapshot as JSON`);
  }
  const { checkpointPath } = share;
  const checkpointDir = message.checkpointing?.checkpointDir ?? '';
  const jobPath = checkpointPath === '' ? undefined : parentLocation(checkpointPath);
  return {
    checkpointId: share.checkpointId,
    state: share.state,
    storage: checkpointPath === '' ? undefined : restoreStorage(checkpointPath, checkpointDir, storages),
    jobStorage: jobPath === undefined ? undefined : restoreStorage(jobPath, checkpointDir, storages),
  };
}

function restoreStorage(checkpointPath: string, checkpointDir: string, storages: StoragePool): Storage {
  const below = checkpointDir === '' ? undefined : relativeBelow(checkpointPath, checkpointDir);
  return below === undefined ? storages.open(checkpointPath) : storages.open(checkpointDir).child(below);
}

function relativeBelow(path: string, directory: string): string | undefined {
  const base = directory.endsWith('/') ? directory : `${directory}/`;
  return path.startsWith(base) && path.length > base.length ? path.slice(base.length) : undefined;
}

function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw invalid(`names the ${what} ${JSON.stringify(value)}; it must be one of ${values.join(', ')}`);
}

function invalid(what: string): WeirError {
  return new WeirError(TaskManagerErrorCode.INVALID_DEPLOYMENT, `the deploy ${what}`);
}
