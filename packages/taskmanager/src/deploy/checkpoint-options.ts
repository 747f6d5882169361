import { WeirError, type TaskStateSnapshot } from '@weir/common';
import type { DeployTask__Output } from '@weir/rpc';
import type { TaskCheckpointing, TaskRestore } from '@weir/runtime';
import type { Storage, StoragePool } from '@weir/storage';
import { TaskManagerErrorCode } from '../errors.ts';

const MODES = ['EXACTLY_ONCE', 'AT_LEAST_ONCE'] as const;
const BACKENDS = ['memory', 'filesystem', 'level'] as const;

/**
 * DeployTask.checkpointing as the runtime takes it, or undefined when the job takes no
 * checkpoints (no message, or an empty mode). A checkpoint directory opens its Storage from
 * the pool; a URL openStorage does not accept throws INVALID_STORAGE_URL.
 */
export function toTaskCheckpointing(message: DeployTask__Output, storages: StoragePool, localStateDir: string): TaskCheckpointing | undefined {
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
    localStateDir,
    openStorage: (url) => storages.open(url),
  };
}

/**
 * DeployTask.restore as the runtime takes it, or undefined for a fresh start. The checkpoint's
 * Storage is a child of the job's checkpoint directory when it lies below it, so restores share
 * that directory's Storage instead of adding one per checkpoint.
 */
export function toTaskRestore(message: DeployTask__Output, storages: StoragePool): TaskRestore | undefined {
  const restore = message.restore;
  if (restore === null) return undefined;
  return {
    checkpointId: restore.checkpointId,
    state: parseSnapshot(restore.state, restore.checkpointId),
    storage:
      restore.checkpointPath === ''
        ? undefined
        : restoreStorage(restore.checkpointPath, message.checkpointing?.checkpointDir ?? '', storages),
    jobStorage: restore.checkpointPath === '' ? undefined : restoreStorage(parentOf(restore.checkpointPath), message.checkpointing?.checkpointDir ?? '', storages),
  };
}

function restoreStorage(checkpointPath: string, checkpointDir: string, storages: StoragePool): Storage {
  const below = checkpointDir === '' ? undefined : relativeBelow(checkpointPath, checkpointDir);
  return below === undefined ? storages.open(checkpointPath) : storages.open(checkpointDir).child(below);
}

/** The directory that holds `path` (URL or local path), the job's checkpoint directory for a `chk-<n>` path. */
function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return slash <= 0 ? trimmed : trimmed.slice(0, slash);
}

function relativeBelow(path: string, directory: string): string | undefined {
  const base = directory.endsWith('/') ? directory : `${directory}/`;
  return path.startsWith(base) && path.length > base.length ? path.slice(base.length) : undefined;
}

function parseSnapshot(bytes: Uint8Array, checkpointId: number): TaskStateSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (error) {
    throw invalid(`carries restore state of checkpoint ${checkpointId} that is not JSON (${(error as Error).message}); it must be a TaskStateSnapshot as JSON`);
  }
  const operators = typeof parsed === 'object' && parsed !== null ? (parsed as { operators?: unknown }).operators : undefined;
  if (typeof operators !== 'object' || operators === null || Array.isArray(operators)) {
    throw invalid(`carries restore state of checkpoint ${checkpointId} without an "operators" object; it must be a TaskStateSnapshot as JSON`);
  }
  return parsed as TaskStateSnapshot;
}

function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw invalid(`names the ${what} ${JSON.stringify(value)}; it must be one of ${values.join(', ')}`);
}

function invalid(what: string): WeirError {
  return new WeirError(TaskManagerErrorCode.INVALID_DEPLOYMENT, `the deploy ${what}`);
}
