import { describe, expect, it } from 'vitest';
import type { ExecutionConfig } from '@weir/api';
import { defaultConfig, isWeirError, type WeirConfig } from '@weir/common';
import { DEFAULT_MAX_INLINE_BYTES, resolveJobSettings } from './resolve-job-settings.ts';

const job: ExecutionConfig = { parallelism: 1, maxParallelism: -1, bufferTimeoutMs: 100, autoWatermarkIntervalMs: 200, objectReuse: false, checkpointing: undefined, stateBackend: undefined, restartStrategy: undefined };
const cluster: WeirConfig = { ...defaultConfig(), 'state.checkpoints.dir': '/data/checkpoints' };

function rejection(run: () => unknown): Error {
  try {
    run();
  } catch (err) {
    expect(isWeirError(err, 'INVALID_JOB_SETTINGS')).toBe(true);
    return err as Error;
  }
  throw new Error('expected INVALID_JOB_SETTINGS');
}

describe('resolveJobSettings', () => {
  it('leaves checkpointing off and restarts to none when neither the job nor the cluster sets an interval', () => {
    expect(resolveJobSettings(job, cluster)).toEqual({ checkpointing: undefined, stateBackend: 'heap', restartStrategy: { kind: 'none' } });
  });

  it('takes what the job set and the cluster keys for the rest', () => {
    const config: WeirConfig = {
      ...cluster,
      'execution.checkpointing.min-pause': 300,
      'execution.checkpointing.timeout': 20_000,
      'execution.checkpointing.max-concurrent-checkpoints': 2,
      'execution.checkpointing.tolerable-failed-checkpoints': 4,
      'state.checkpoints.num-retained': 3,
    };
    const settings = resolveJobSettings({ ...job, checkpointing: { intervalMs: 1_000, mode: 'AT_LEAST_ONCE', minPauseMs: 50, externalizedCleanup: 'RETAIN_ON_CANCELLATION' } }, config);
    expect(settings).toEqual({
      checkpointing: {
        intervalMs: 1_000,
        mode: 'AT_LEAST_ONCE',
        minPauseMs: 50,
        timeoutMs: 20_000,
        maxConcurrent: 2,
        tolerableFailures: 4,
        externalizedCleanup: 'RETAIN_ON_CANCELLATION',
        numRetained: 3,
        backend: 'filesystem',
        maxInlineBytes: 0,
        asyncSnapshots: true,
        directory: '/data/checkpoints',
        incremental: false,
        unaligned: false,
        alignedCheckpointTimeoutMs: 0,
      },
      stateBackend: 'heap',
      restartStrategy: { kind: 'exponential-delay', initialBackoffMs: 1_000, maxBackoffMs: 60_000, multiplier: 1.5, resetThresholdMs: 3_600_000, jitter: 0.1 },
    });
  });

  it('keeps keyed state where state.backend or the job says, with or without checkpointing, as Flink does', () => {
    // No checkpoint directory: without checkpoints LevelDB needs none (its files stay local).
    const noDirectory = { ...cluster, 'state.checkpoints.dir': '' };
    expect(resolveJobSettings(job, { ...noDirectory, 'state.backend': 'level' })).toMatchObject({ checkpointing: undefined, stateBackend: 'level' });
    expect(resolveJobSettings(job, { ...noDirectory, 'state.backend': 'rocksdb' }).stateBackend).toBe('level');
    expect(resolveJobSettings(job, { ...noDirectory, 'state.backend': 'filesystem' }).stateBackend).toBe('heap');
    expect(resolveJobSettings({ ...job, stateBackend: { kind: 'level', checkpointDir: undefined, incremental: true } }, noDirectory).stateBackend).toBe('level');
    expect(resolveJobSettings({ ...job, stateBackend: { kind: 'memory', maxStateSize: 1_000 } }, { ...noDirectory, 'state.backend': 'level' }).stateBackend).toBe('heap');
    const checkpointed = resolveJobSettings({ ...job, checkpointing: { intervalMs: 100 } }, { ...cluster, 'state.backend': 'level' });
    expect([checkpointed.stateBackend, checkpointed.checkpointing?.backend]).toEqual(['level', 'level']);
  });

  it('turns changelog checkpoints on for the LevelDB backend only, with the materialization interval', () => {
    const config = { ...cluster, 'state.backend': 'level' as const, 'state.checkpoints.dir': '/data/checkpoints', 'state.backend.changelog.enabled': true, 'state.backend.changelog.periodic-materialize.interval': 30_000 };
    expect(resolveJobSettings({ ...job, checkpointing: { intervalMs: 100 } }, config).checkpointing).toMatchObject({ backend: 'level', changelogMaterializeIntervalMs: 30_000 });
    const heap = resolveJobSettings({ ...job, checkpointing: { intervalMs: 100 } }, { ...config, 'state.backend': 'filesystem' }).checkpointing!;
    expect('changelogMaterializeIntervalMs' in heap).toBe(false);
  });

  it('turns checkpointing on from execution.checkpointing.interval alone', () => {
    const settings = resolveJobSettings(job, { ...cluster, 'execution.checkpointing.interval': 2_000 });
    expect(settings.checkpointing).toMatchObject({ intervalMs: 2_000, mode: 'EXACTLY_ONCE', externalizedCleanup: 'NO_EXTERNALIZED_CHECKPOINTS', numRetained: 1 });
  });

  it('prefers the FsStateBackend path to state.checkpoints.dir and keeps its async setting', () => {
    const settings = resolveJobSettings(
      { ...job, checkpointing: { intervalMs: 100 }, stateBackend: { kind: 'filesystem', checkpointDir: 's3://b/cp', asyncSnapshots: false } },
      cluster,
    );
    expect(settings.checkpointing).toMatchObject({ backend: 'filesystem', directory: 's3://b/cp', asyncSnapshots: false });
  });

  it('inlines memory-backend snapshots up to its limit, with _metadata under state.checkpoints.dir if set', () => {
    const own = resolveJobSettings({ ...job, checkpointing: { intervalMs: 100 }, stateBackend: { kind: 'memory', maxStateSize: 1_000 } }, { ...cluster, 'state.checkpoints.dir': '' });
    expect(own.checkpointing).toMatchObject({ backend: 'memory', maxInlineBytes: 1_000, directory: undefined });
    const fromCluster = resolveJobSettings({ ...job, checkpointing: { intervalMs: 100 } }, { ...cluster, 'state.backend': 'memory' });
    expect(fromCluster.checkpointing).toMatchObject({ backend: 'memory', maxInlineBytes: DEFAULT_MAX_INLINE_BYTES, directory: '/data/checkpoints' });
  });

  it('refuses a filesystem backend without any directory', () => {
    const noDir = { ...cluster, 'state.checkpoints.dir': '' };
    expect(rejection(() => resolveJobSettings({ ...job, checkpointing: { intervalMs: 100 }, stateBackend: { kind: 'filesystem', checkpointDir: undefined, asyncSnapshots: true } }, noDir)).message).toBe(
      'FsStateBackend needs a checkpoint directory: pass a path or set state.checkpoints.dir',
    );
    expect(rejection(() => resolveJobSettings({ ...job, checkpointing: { intervalMs: 100 } }, noDir)).message).toBe(
      'state.backend hashmap needs a checkpoint directory: set state.checkpoints.dir, or pass a path to FsStateBackend in the job',
    );
  });

  it("takes the job's restart strategy over the cluster's and the cluster's over the default", () => {
    const config: WeirConfig = { ...cluster, 'restart-strategy.type': 'failure-rate', 'restart-strategy.failure-rate.max-failures-per-interval': 3 };
    expect(resolveJobSettings(job, config).restartStrategy).toEqual({ kind: 'failure-rate', maxFailuresPerInterval: 3, intervalMs: 60_000, delayMs: 1_000 });
    expect(resolveJobSettings({ ...job, restartStrategy: { kind: 'fixed-delay', attempts: 2, delayMs: 10 } }, config).restartStrategy).toEqual({
      kind: 'fixed-delay',
      attempts: 2,
      delayMs: 10,
    });
    expect(resolveJobSettings(job, { ...cluster, 'restart-strategy.type': 'exponential-delay' }).restartStrategy).toEqual({
      kind: 'exponential-delay',
      initialBackoffMs: 1_000,
      maxBackoffMs: 60_000,
      multiplier: 1.5,
      resetThresholdMs: 3_600_000,
      jitter: 0.1,
    });
  });

  it('refuses restart strategy values no strategy can work with, naming them', () => {
    const config: WeirConfig = { ...cluster, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': -1 };
    expect(rejection(() => resolveJobSettings(job, config)).message).toBe('restart strategy fixed-delay from restart-strategy.* cannot work: attempts is -1 but must be at least 0');
    const jitter = { ...cluster, 'restart-strategy.type': 'exponential-delay', 'restart-strategy.exponential-delay.jitter-factor': 1.5 } as const;
    expect(rejection(() => resolveJobSettings(job, jitter)).message).toBe(
      'restart strategy exponential-delay from restart-strategy.* cannot work: jitter factor is 1.5 but must be from 0 to 1',
    );
  });
});
