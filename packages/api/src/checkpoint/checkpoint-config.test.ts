import { describe, expect, it } from 'vitest';
import { errorOf } from '../testing/fixtures.ts';
import { CheckpointConfig } from './checkpoint-config.ts';
import { CheckpointingMode, ExternalizedCheckpointCleanup } from './checkpointing-mode.ts';

describe('CheckpointConfig', () => {
  it('starts disabled, with every setting left to the cluster', () => {
    const config = new CheckpointConfig();
    expect(config.isCheckpointingEnabled()).toBe(false);
    expect(config.getCheckpointInterval()).toBe(-1);
    expect(config.getCheckpointingMode()).toBeUndefined();
    expect(config.getMinPauseBetweenCheckpoints()).toBeUndefined();
    expect(config.getCheckpointTimeout()).toBeUndefined();
    expect(config.getMaxConcurrentCheckpoints()).toBeUndefined();
    expect(config.getTolerableCheckpointFailureNumber()).toBeUndefined();
    expect(config.getExternalizedCheckpointCleanup()).toBeUndefined();
    expect(config.toSettings()).toBeUndefined();
  });

  it('returns what each setter set', () => {
    const config = new CheckpointConfig()
      .setCheckpointInterval(1000)
      .setCheckpointingMode(CheckpointingMode.AT_LEAST_ONCE)
      .setMinPauseBetweenCheckpoints(0)
      .setCheckpointTimeout(10)
      .setMaxConcurrentCheckpoints(2)
      .setTolerableCheckpointFailureNumber(0)
      .setExternalizedCheckpointCleanup(ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION);
    expect(config.isCheckpointingEnabled()).toBe(true);
    expect(config.getCheckpointInterval()).toBe(1000);
    expect(config.getCheckpointingMode()).toBe('AT_LEAST_ONCE');
    expect(config.getMinPauseBetweenCheckpoints()).toBe(0);
    expect(config.getCheckpointTimeout()).toBe(10);
    expect(config.getMaxConcurrentCheckpoints()).toBe(2);
    expect(config.getTolerableCheckpointFailureNumber()).toBe(0);
    expect(config.getExternalizedCheckpointCleanup()).toBe('DELETE_ON_CANCELLATION');
    config.enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
    expect(config.getExternalizedCheckpointCleanup()).toBe('RETAIN_ON_CANCELLATION');
    expect(config.toSettings()).toEqual({
      intervalMs: 1000,
      mode: 'AT_LEAST_ONCE',
      minPauseMs: 0,
      timeoutMs: 10,
      maxConcurrent: 2,
      tolerableFailures: 0,
      externalizedCleanup: 'RETAIN_ON_CANCELLATION',
    });
  });

  it('records settings made before the interval, and puts only the set ones into the settings', () => {
    const config = new CheckpointConfig().setCheckpointTimeout(60_000);
    expect(config.toSettings()).toBeUndefined();
    config.setCheckpointInterval(10);
    expect(Object.keys(config.toSettings()!)).toEqual(['intervalMs', 'timeoutMs']);
    expect(config.toSettings()).toEqual({ intervalMs: 10, timeoutMs: 60_000 });
  });

  it.each([
    ['interval below 10 ms', (c: CheckpointConfig) => c.setCheckpointInterval(9), 'checkpoint interval must be a whole number of ms >= 10, got 9'],
    ['fractional interval', (c: CheckpointConfig) => c.setCheckpointInterval(10.5), 'checkpoint interval must be a whole number of ms >= 10, got 10.5'],
    ['negative min pause', (c: CheckpointConfig) => c.setMinPauseBetweenCheckpoints(-1), 'min pause between checkpoints must be a whole number of ms >= 0, got -1'],
    ['timeout below 10 ms', (c: CheckpointConfig) => c.setCheckpointTimeout(5), 'checkpoint timeout must be a whole number of ms >= 10, got 5'],
    ['no concurrent checkpoints', (c: CheckpointConfig) => c.setMaxConcurrentCheckpoints(0), 'max concurrent checkpoints must be a whole number of checkpoints >= 1, got 0'],
    ['negative tolerable failures', (c: CheckpointConfig) => c.setTolerableCheckpointFailureNumber(-1), 'tolerable checkpoint failure number must be a whole number of failures >= 0, got -1'],
    ['NaN timeout', (c: CheckpointConfig) => c.setCheckpointTimeout(Number.NaN), 'checkpoint timeout must be a whole number of ms >= 10, got NaN'],
    [
      'unknown mode',
      (c: CheckpointConfig) => c.setCheckpointingMode('exactly_once' as CheckpointingMode),
      'checkpointing mode must be one of CheckpointingMode.EXACTLY_ONCE, CheckpointingMode.AT_LEAST_ONCE, got exactly_once',
    ],
    [
      'unknown cleanup',
      (c: CheckpointConfig) => c.enableExternalizedCheckpoints('RETAIN' as ExternalizedCheckpointCleanup),
      'externalized checkpoint cleanup must be one of ExternalizedCheckpointCleanup.NO_EXTERNALIZED_CHECKPOINTS, ' +
        'ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION, ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION, got RETAIN',
    ],
  ])('rejects a %s with INVALID_CHECKPOINT_CONFIG and keeps the old value', (_name, set, message) => {
    const config = new CheckpointConfig();
    expect(errorOf(() => set(config))).toEqual({ code: 'INVALID_CHECKPOINT_CONFIG', message });
    expect(config.toSettings()).toBeUndefined();
    expect(config.getCheckpointTimeout()).toBeUndefined();
  });
});
