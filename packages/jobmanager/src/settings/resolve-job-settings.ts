import type { ExecutionConfig } from '@weir/api';
import { WeirError, type WeirConfig } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';
import type { CheckpointingSettings, JobSettings, KeyedStateBackendKind } from './job-settings.ts';
import { resolveRestartStrategy } from './resolve-restart-strategy.ts';

/** MemoryStateBackend's default limit, for `state.backend: memory` set in the cluster config. */
export const DEFAULT_MAX_INLINE_BYTES = 5 * 1024 * 1024;

type BackendSettings = Pick<CheckpointingSettings, 'backend' | 'maxInlineBytes' | 'asyncSnapshots' | 'directory' | 'incremental'>;

/**
 * The settings a job runs with: what it set in its ExecutionConfig over the cluster's
 * execution.checkpointing.*, state.* and restart-strategy.* keys. Checkpointing is on when the
 * job's interval or execution.checkpointing.interval is above 0. Throws INVALID_JOB_SETTINGS
 * when the result cannot work (a filesystem backend with no directory, a bad restart strategy).
 */
export function resolveJobSettings(job: ExecutionConfig, config: WeirConfig): JobSettings {
  const checkpointing = resolveCheckpointing(job, config);
  return {
    checkpointing,
    stateBackend: keyedStateBackend(job, config),
    restartStrategy: resolveRestartStrategy(job.restartStrategy, config, checkpointing !== undefined),
  };
}

/**
 * LevelDB when the job sets a LevelStateBackend, or sets none and state.backend is level or
 * rocksdb; the heap otherwise. Needs no checkpoint directory: without checkpoints the state
 * lives only in the TaskManager's local directory (Flink's EmbeddedRocksDBStateBackend does
 * the same), so a large-state job spills to disk whether or not it checkpoints.
 */
function keyedStateBackend(job: ExecutionConfig, config: WeirConfig): KeyedStateBackendKind {
  const own = job.stateBackend?.kind;
  if (own !== undefined) return own === 'level' ? 'level' : 'heap';
  return config['state.backend'] === 'level' || config['state.backend'] === 'rocksdb' ? 'level' : 'heap';
}

function resolveCheckpointing(job: ExecutionConfig, config: WeirConfig): CheckpointingSettings | undefined {
  const own = job.checkpointing;
  const intervalMs = own !== undefined && own.intervalMs > 0 ? own.intervalMs : config['execution.checkpointing.interval'];
  if (intervalMs <= 0) return undefined;
  const mode = own?.mode ?? config['execution.checkpointing.mode'];
  const maxConcurrent = own?.maxConcurrent ?? config['execution.checkpointing.max-concurrent-checkpoints'];
  const unaligned = own?.unaligned ?? config['execution.checkpointing.unaligned'];
  if (unaligned && mode !== 'EXACTLY_ONCE') {
    throw new WeirError(
      JobManagerErrorCode.INVALID_JOB_SETTINGS,
      `unaligned checkpoints need checkpointing mode EXACTLY_ONCE, but the job runs ${mode}; set CheckpointingMode.EXACTLY_ONCE or turn unaligned checkpoints off`,
    );
  }
  if (unaligned && maxConcurrent !== 1) {
    throw new WeirError(
      JobManagerErrorCode.INVALID_JOB_SETTINGS,
      `unaligned checkpoints allow one concurrent checkpoint, but max concurrent checkpoints is ${maxConcurrent}; set it to 1 or turn unaligned checkpoints off`,
    );
  }
  const backend = resolveBackend(job, config);
  return {
    intervalMs,
    mode,
    minPauseMs: own?.minPauseMs ?? config['execution.checkpointing.min-pause'],
    timeoutMs: own?.timeoutMs ?? config['execution.checkpointing.timeout'],
    maxConcurrent,
    tolerableFailures: Math.max(0, own?.tolerableFailures ?? config['execution.checkpointing.tolerable-failed-checkpoints']),
    externalizedCleanup: own?.externalizedCleanup ?? config['execution.checkpointing.externalized-checkpoint-retention'],
    numRetained: config['state.checkpoints.num-retained'],
    unaligned,
    alignedCheckpointTimeoutMs: own?.alignedCheckpointTimeoutMs ?? config['execution.checkpointing.aligned-checkpoint-timeout'],
    ...backend,
    ...(backend.backend === 'level' && config['state.backend.changelog.enabled'] ? { changelogMaterializeIntervalMs: config['state.backend.changelog.periodic-materialize.interval'] } : {}),
  };
}

function resolveBackend(job: ExecutionConfig, config: WeirConfig): BackendSettings {
  const clusterDirectory = nonEmpty(config['state.checkpoints.dir']);
  const backend = job.stateBackend;
  if (backend?.kind === 'memory') {
    return { backend: 'memory', maxInlineBytes: backend.maxStateSize, asyncSnapshots: true, directory: clusterDirectory, incremental: false };
  }
  if (backend?.kind === 'filesystem') {
    const directory = nonEmpty(backend.checkpointDir) ?? clusterDirectory;
    if (directory === undefined) {
      throw new WeirError(
        JobManagerErrorCode.INVALID_JOB_SETTINGS,
        'FsStateBackend needs a checkpoint directory: pass a path or set state.checkpoints.dir',
      );
    }
    return { backend: 'filesystem', maxInlineBytes: 0, asyncSnapshots: backend.asyncSnapshots, directory, incremental: false };
  }
  if (backend?.kind === 'level') {
    const directory = nonEmpty(backend.checkpointDir) ?? clusterDirectory;
    if (directory === undefined) {
      throw new WeirError(
        JobManagerErrorCode.INVALID_JOB_SETTINGS,
        'LevelStateBackend needs a checkpoint directory: pass a path or set state.checkpoints.dir',
      );
    }
    return { backend: 'level', maxInlineBytes: 0, asyncSnapshots: true, directory, incremental: backend.incremental };
  }
  if (config['state.backend'] === 'memory') {
    return { backend: 'memory', maxInlineBytes: DEFAULT_MAX_INLINE_BYTES, asyncSnapshots: true, directory: clusterDirectory, incremental: false };
  }
  if (clusterDirectory === undefined) {
    throw new WeirError(
      JobManagerErrorCode.INVALID_JOB_SETTINGS,
      `state.backend ${config['state.backend']} needs a checkpoint directory: set state.checkpoints.dir, or pass a path to FsStateBackend in the job`,
    );
  }
  const level = config['state.backend'] === 'level' || config['state.backend'] === 'rocksdb';
  return {
    backend: level ? 'level' : 'filesystem',
    maxInlineBytes: 0,
    asyncSnapshots: true,
    directory: clusterDirectory,
    incremental: level && config['state.backend.incremental'],
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
