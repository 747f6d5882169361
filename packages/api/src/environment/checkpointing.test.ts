import { describe, expect, it } from 'vitest';
import { CheckpointingMode, ExternalizedCheckpointCleanup } from '../checkpoint/checkpointing-mode.ts';
import { RestartStrategies } from '../checkpoint/restart-strategies.ts';
import { FsStateBackend, HashMapStateBackend, MemoryStateBackend } from '../checkpoint/state-backend.ts';
import { buildStreamGraph } from '../graph/build-stream-graph.ts';
import { DEFAULTS, environment, errorOf, testSink, testSource } from '../testing/fixtures.ts';
import type { StreamExecutionEnvironment } from './stream-execution-environment.ts';

function job(env: StreamExecutionEnvironment): void {
  env.fromSource(testSource<string>(), 'lines').sinkTo(testSink());
}

describe('StreamExecutionEnvironment checkpointing', () => {
  it('builds the configuration of the seed template, written as in Flink', async () => {
    const graph = await buildStreamGraph(
      (env) => {
        env.enableCheckpointing(1000);
        env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
        env.getCheckpointConfig().setMinPauseBetweenCheckpoints(500);
        env.getCheckpointConfig().setCheckpointTimeout(60000);
        env.getCheckpointConfig().setMaxConcurrentCheckpoints(1);
        env.getCheckpointConfig().setTolerableCheckpointFailureNumber(3);
        env.getCheckpointConfig().enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
        env.setStateBackend(new FsStateBackend('s3://weir/checkpoints'));
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 1000));
        job(env);
      },
      [],
      DEFAULTS,
    );
    expect(graph.config).toEqual({
      parallelism: 1,
      maxParallelism: -1,
      bufferTimeoutMs: 100,
      autoWatermarkIntervalMs: 200,
      objectReuse: false,
      checkpointing: {
        intervalMs: 1000,
        mode: 'EXACTLY_ONCE',
        minPauseMs: 500,
        timeoutMs: 60000,
        maxConcurrent: 1,
        tolerableFailures: 3,
        externalizedCleanup: 'RETAIN_ON_CANCELLATION',
      },
      stateBackend: { kind: 'filesystem', checkpointDir: 's3://weir/checkpoints', asyncSnapshots: true },
      restartStrategy: { kind: 'fixed-delay', attempts: 3, delayMs: 1000 },
    });
  });

  it('leaves checkpointing, state backend and restart strategy to the cluster when the job sets none', () => {
    const env = environment();
    job(env);
    const { config } = env.getStreamGraph();
    expect(config.checkpointing).toBeUndefined();
    expect(config.stateBackend).toBeUndefined();
    expect(config.restartStrategy).toBeUndefined();
    expect(Object.keys(config)).toEqual(['parallelism', 'maxParallelism', 'bufferTimeoutMs', 'autoWatermarkIntervalMs', 'objectReuse', 'checkpointing', 'stateBackend', 'restartStrategy']);
  });

  it('records checkpoint settings made before enableCheckpointing, and only enables with an interval', () => {
    const env = environment();
    job(env);
    const config = env.getCheckpointConfig();
    config.setCheckpointTimeout(30_000);
    expect(env.getCheckpointConfig()).toBe(config);
    expect(env.getStreamGraph().config.checkpointing).toBeUndefined();
    env.enableCheckpointing(200);
    expect(config.isCheckpointingEnabled()).toBe(true);
    expect(env.getStreamGraph().config.checkpointing).toEqual({ intervalMs: 200, timeoutMs: 30_000 });
  });

  it('enableCheckpointing sets the mode when given one and keeps it otherwise', () => {
    const env = environment().enableCheckpointing(50, CheckpointingMode.AT_LEAST_ONCE);
    expect(env.getCheckpointConfig().getCheckpointingMode()).toBe('AT_LEAST_ONCE');
    env.enableCheckpointing(70);
    expect(env.getCheckpointConfig().getCheckpointInterval()).toBe(70);
    expect(env.getCheckpointConfig().getCheckpointingMode()).toBe('AT_LEAST_ONCE');
    expect(errorOf(() => env.enableCheckpointing(5))).toEqual({
      code: 'INVALID_CHECKPOINT_CONFIG',
      message: 'checkpoint interval must be a whole number of ms >= 10, got 5',
    });
    expect(errorOf(() => env.enableCheckpointing(100, 'ONCE' as CheckpointingMode)).code).toBe('INVALID_CHECKPOINT_CONFIG');
  });

  it('keeps the last state backend and restart strategy set, and puts their settings into the graph', () => {
    const env = environment();
    job(env);
    const memory = new MemoryStateBackend(1024);
    env.setStateBackend(new HashMapStateBackend()).setStateBackend(memory);
    expect(env.getStateBackend()).toBe(memory);
    const strategy = RestartStrategies.exponentialDelayRestart(10, 1000, 2, 5000, 0);
    env.setRestartStrategy(RestartStrategies.noRestart()).setRestartStrategy(strategy);
    expect(env.getRestartStrategy()).toBe(strategy);
    const { config } = env.getStreamGraph();
    expect(config.stateBackend).toEqual({ kind: 'memory', maxStateSize: 1024 });
    expect(config.restartStrategy).toEqual({ kind: 'exponential-delay', initialBackoffMs: 10, maxBackoffMs: 1000, multiplier: 2, resetThresholdMs: 5000, jitter: 0 });
  });

  it('rejects what is not a state backend or a restart strategy', () => {
    expect(errorOf(() => environment().setStateBackend({ kind: 'memory', maxStateSize: 1 } as never))).toEqual({
      code: 'INVALID_STATE_BACKEND',
      message:
        'setStateBackend() takes a state backend such as new HashMapStateBackend(), new FsStateBackend(path) or new MemoryStateBackend(), got [object Object]',
    });
    expect(errorOf(() => environment().setRestartStrategy({ kind: 'none' } as never))).toEqual({
      code: 'INVALID_RESTART_STRATEGY',
      message: 'setRestartStrategy() takes what a RestartStrategies factory makes, such as RestartStrategies.fixedDelayRestart(3, 1000), got [object Object]',
    });
  });
});
