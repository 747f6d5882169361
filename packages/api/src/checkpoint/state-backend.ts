import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { StateBackendSettings } from '../graph/stream-graph.ts';

/** Flink's default limit of the MemoryStateBackend: a task's snapshot above it is declined. */
export const DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024;

/** Schemes the checkpoint storage understands; a plain path (no scheme) is a local path. */
const SUPPORTED_SCHEMES = ['file', 's3'];

/** Where state lives and where its snapshots go; give one to `env.setStateBackend()`. */
export abstract class StateBackend {
  /** What goes into the StreamGraph's ExecutionConfig. */
  abstract readonly settings: StateBackendSettings;
}

/**
 * Heap state whose snapshots travel inline in the acknowledgement and `_metadata`: for tests
 * and small state. A task whose snapshot is over `maxStateSize` bytes declines the checkpoint.
 */
export class MemoryStateBackend extends StateBackend {
  readonly settings: StateBackendSettings;

  constructor(maxStateSize: number = DEFAULT_MAX_STATE_SIZE) {
    super();
    if (!Number.isSafeInteger(maxStateSize) || maxStateSize < 1) {
      throw new WeirError(
        ApiErrorCode.INVALID_STATE_BACKEND,
        `MemoryStateBackend max state size must be a whole number of bytes >= 1 (default ${DEFAULT_MAX_STATE_SIZE}), got ${String(maxStateSize)}`,
      );
    }
    this.settings = Object.freeze({ kind: 'memory', maxStateSize });
  }
}

/**
 * Heap state whose snapshots are files below `checkpointPath` (a local path, `file://` or
 * `s3://` URL; without it the cluster's state.checkpoints.dir). With `asyncSnapshots` the
 * files are written while records keep flowing.
 */
export class FsStateBackend extends StateBackend {
  readonly settings: StateBackendSettings;

  constructor(checkpointPath?: string, asyncSnapshots = true) {
    super();
    if (checkpointPath !== undefined) requireCheckpointPath(checkpointPath);
    if (typeof asyncSnapshots !== 'boolean') {
      throw new WeirError(ApiErrorCode.INVALID_STATE_BACKEND, `FsStateBackend asyncSnapshots must be true or false, got ${String(asyncSnapshots)}`);
    }
    this.settings = Object.freeze({ kind: 'filesystem', checkpointDir: checkpointPath, asyncSnapshots });
  }
}

/**
 * Keyed state in LevelDB (through classic-level) on the TaskManager's local disk
 * (state.backend.rocksdb.localdir), one DB per operator subtask: state larger than memory.
 * Snapshots are the DB's table files below `checkpointPath` (a local path, `file://` or
 * `s3://` URL; without it the cluster's state.checkpoints.dir). With `incremental`, a
 * checkpoint uploads only the table files no earlier checkpoint uploaded.
 */
export class LevelStateBackend extends StateBackend {
  readonly settings: StateBackendSettings;

  constructor(checkpointPath?: string, incremental = false) {
    super();
    if (checkpointPath !== undefined) requireCheckpointPath(checkpointPath);
    if (typeof incremental !== 'boolean') {
      throw new WeirError(ApiErrorCode.INVALID_STATE_BACKEND, `LevelStateBackend incremental must be true or false, got ${String(incremental)}`);
    }
    this.settings = Object.freeze({ kind: 'level', checkpointDir: checkpointPath, incremental });
  }
}

/** Flink's name for the embedded-database backend: here LevelDB, as `new RocksDBStateBackend(path, incremental)`. */
export class RocksDBStateBackend extends LevelStateBackend {}

/** Flink's current name for heap state with file snapshots: an FsStateBackend writing to the cluster's state.checkpoints.dir. */
export class HashMapStateBackend extends FsStateBackend {
  constructor() {
    super(undefined, true);
  }
}

function requireCheckpointPath(path: unknown): void {
  if (typeof path !== 'string' || path.length === 0) {
    throw new WeirError(
      ApiErrorCode.INVALID_STATE_BACKEND,
      `FsStateBackend needs a checkpoint path (a local path, file:// or s3:// URL) or none for state.checkpoints.dir, got ${JSON.stringify(path)}`,
    );
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(path)?.[1]?.toLowerCase();
  if (scheme !== undefined && !SUPPORTED_SCHEMES.includes(scheme)) {
    throw new WeirError(
      ApiErrorCode.INVALID_STATE_BACKEND,
      `FsStateBackend checkpoint path ${path} has the unsupported scheme ${scheme}://; use a local path, file:// or s3://`,
    );
  }
}
