import { WeirError } from '@weir/common';
import { CheckpointConfig } from '../checkpoint/checkpoint-config.ts';
import type { CheckpointingMode } from '../checkpoint/checkpointing-mode.ts';
import { RestartStrategyConfiguration } from '../checkpoint/restart-strategies.ts';
import { StateBackend } from '../checkpoint/state-backend.ts';
import { ApiErrorCode } from '../errors.ts';
import type { Source } from '../connector/types.ts';
import type { AnySource } from '../connector/splits.ts';
import type { StreamGraph } from '../graph/stream-graph.ts';
import { generateStreamGraph } from '../graph/stream-graph-generator.ts';
import { JobBuilder } from '../streams/job-builder.ts';
import type { SingleOutputStreamOperator } from '../streams/single-output-stream-operator.ts';
import { requireBufferTimeout, requireMaxParallelism, requireMaxParallelismOrDerive, requireParallelism } from '../streams/validation.ts';
import { CollectionSource } from './collection-source.ts';
import { WatermarkStrategy } from '../time/watermark-strategy.ts';
import { EnvironmentConfig } from './environment-config.ts';

/** The settings a job starts from before its main changes them: `weir run -p`, the cluster's config. */
export interface EnvironmentDefaults {
  readonly parallelism: number;
  /** -1 derives each operator's max parallelism from its parallelism. */
  readonly maxParallelism: number;
  /** 0 flushes after every record, -1 only full buffers. */
  readonly bufferTimeoutMs: number;
  /** pipeline.auto-watermark-interval: 200 ms when unset. */
  readonly autoWatermarkIntervalMs?: number;
  /** pipeline.object-reuse: object reuse on unless the job disables it; absent is off. */
  readonly objectReuse?: boolean;
}

/** Flink's defaults: parallelism 1, derived max parallelism, 100 ms buffer timeout. */
export const DEFAULT_ENVIRONMENT: EnvironmentDefaults = Object.freeze({ parallelism: 1, maxParallelism: -1, bufferTimeoutMs: 100 });

/** Flink's default of pipeline.auto-watermark-interval. */
export const DEFAULT_AUTO_WATERMARK_INTERVAL_MS = 200;

/**
 * What a job's main builds the job on (Flink's StreamExecutionEnvironment). Weir runs the
 * main to build the graph, in the JobManager and again in every task, so the main must
 * build the same job each time and do nothing else.
 */
export class StreamExecutionEnvironment {
  readonly #builder = new JobBuilder();
  #parallelism: number;
  #maxParallelism: number;
  #bufferTimeoutMs: number;
  #jobName: string | undefined;
  readonly #checkpointConfig = new CheckpointConfig();
  readonly #config: EnvironmentConfig;
  #stateBackend: StateBackend | undefined;
  #restartStrategy: RestartStrategyConfiguration | undefined;

  constructor(defaults: EnvironmentDefaults = DEFAULT_ENVIRONMENT) {
    this.#parallelism = requireParallelism(defaults.parallelism, 'the environment defaults');
    this.#maxParallelism = requireMaxParallelismOrDerive(defaults.maxParallelism, 'the environment defaults');
    this.#bufferTimeoutMs = requireBufferTimeout(defaults.bufferTimeoutMs);
    this.#config = new EnvironmentConfig(defaults.autoWatermarkIntervalMs ?? DEFAULT_AUTO_WATERMARK_INTERVAL_MS);
    if (defaults.objectReuse === true) this.#config.enableObjectReuse();
  }

  /** Settings of how the job runs (Flink's ExecutionConfig): the auto-watermark interval, object reuse. */
  getConfig(): EnvironmentConfig {
    return this.#config;
  }

  /** Default parallelism of every operator without its own `setParallelism`. */
  setParallelism(parallelism: number): this {
    this.#parallelism = requireParallelism(parallelism, 'the environment');
    return this;
  }

  /** The job's default parallelism (Flink's getParallelism); -1 until set, then the cluster's parallelism.default applies. */
  getParallelism(): number {
    return this.#parallelism;
  }

  /** The number of key groups, the upper limit for rescaling keyed state; it cannot change across a restore. */
  setMaxParallelism(maxParallelism: number): this {
    this.#maxParallelism = requireMaxParallelism(maxParallelism, 'the environment');
    return this;
  }

  /** -1 while derived per operator. */
  getMaxParallelism(): number {
    return this.#maxParallelism;
  }

  /** How long a partly filled output buffer may wait: 0 flushes every record (lowest latency), -1 only full buffers. */
  setBufferTimeout(timeoutMs: number): this {
    this.#bufferTimeoutMs = requireBufferTimeout(timeoutMs);
    return this;
  }

  /** How long a partly filled output buffer may wait before it is sent (ms), as Flink's getBufferTimeout. */
  getBufferTimeout(): number {
    return this.#bufferTimeoutMs;
  }

  /** Takes a checkpoint every `intervalMs` (at least 10 ms); without `mode` the cluster's execution.checkpointing.mode applies. */
  enableCheckpointing(intervalMs: number, mode?: CheckpointingMode): this {
    this.#checkpointConfig.setCheckpointInterval(intervalMs);
    if (mode !== undefined) this.#checkpointConfig.setCheckpointingMode(mode);
    return this;
  }

  /** The job's checkpoint settings; usable before enableCheckpointing, which is what turns checkpointing on. */
  getCheckpointConfig(): CheckpointConfig {
    return this.#checkpointConfig;
  }

  /** Without one the cluster's state.backend applies. */
  setStateBackend(backend: StateBackend): this {
    if (!(backend instanceof StateBackend)) {
      throw new WeirError(
        ApiErrorCode.INVALID_STATE_BACKEND,
        `setStateBackend() takes a state backend such as new HashMapStateBackend(), new FsStateBackend(path) or new MemoryStateBackend(), got ${String(backend)}`,
      );
    }
    this.#stateBackend = backend;
    return this;
  }

  /** The state backend the job set (setStateBackend), or undefined for the cluster's state.backend. */
  getStateBackend(): StateBackend | undefined {
    return this.#stateBackend;
  }

  /** Without one the cluster's restart-strategy.* keys apply. */
  setRestartStrategy(strategy: RestartStrategyConfiguration): this {
    if (!(strategy instanceof RestartStrategyConfiguration)) {
      throw new WeirError(
        ApiErrorCode.INVALID_RESTART_STRATEGY,
        `setRestartStrategy() takes what a RestartStrategies factory makes, such as RestartStrategies.fixedDelayRestart(3, 1000), got ${String(strategy)}`,
      );
    }
    this.#restartStrategy = strategy;
    return this;
  }

  /** The restart strategy the job set, or undefined for the cluster's restart-strategy.*. */
  getRestartStrategy(): RestartStrategyConfiguration | undefined {
    return this.#restartStrategy;
  }

  /** A stream read from `source` (Flink's fromSource); with a WatermarkStrategy, timestamps and watermarks are made per reader and split. */
  fromSource<T>(source: AnySource<T>, sourceName: string): SingleOutputStreamOperator<T>;
  /** A stream read from `source` (Flink's fromSource); with a WatermarkStrategy, timestamps and watermarks are made per reader and split. */
  fromSource<T>(source: AnySource<T>, watermarkStrategy: WatermarkStrategy<T>, sourceName: string): SingleOutputStreamOperator<T>;
  /** A stream read from `source` (Flink's fromSource); with a WatermarkStrategy, timestamps and watermarks are made per reader and split. */
  fromSource<T>(
    source: AnySource<T>,
    nameOrStrategy: string | WatermarkStrategy<T>,
    sourceName?: string,
  ): SingleOutputStreamOperator<T> {
    const name = typeof nameOrStrategy === 'string' ? nameOrStrategy : sourceName;
    if (typeof nameOrStrategy !== 'string' && !(nameOrStrategy instanceof WatermarkStrategy)) {
      throw new WeirError(
        ApiErrorCode.INVALID_FUNCTION,
        'fromSource(source, watermarkStrategy, name) takes a WatermarkStrategy such as WatermarkStrategy.noWatermarks() as its second argument',
      );
    }
    if (typeof name !== 'string' || name.length === 0) {
      throw new WeirError(ApiErrorCode.INVALID_NAME, 'fromSource() needs a source name, as in env.fromSource(source, \'lines\')');
    }
    const candidate = source as Partial<Source<T>> | null;
    if (candidate === null || typeof candidate !== 'object' || typeof candidate.createReader !== 'function') {
      throw new WeirError(
        ApiErrorCode.INVALID_FUNCTION,
        `fromSource() takes a Source (an object with createReader()), such as FileSource.forRecordStreamFormat(...).build(); got ${String(source)}`,
      );
    }
    const strategy = typeof nameOrStrategy === 'string' ? undefined : (nameOrStrategy as WatermarkStrategy<unknown>);
    return this.#builder.addSource(source, name, strategy);
  }

  /** A bounded source of the given items, split across the source's subtasks. */
  fromElements<T>(...items: T[]): SingleOutputStreamOperator<T> {
    return this.fromCollection(items);
  }

  /** A bounded stream of the given elements (Flink's fromCollection/fromElements); elements must be serializable, since every TaskManager rebuilds the job. */
  fromCollection<T>(items: Iterable<T>): SingleOutputStreamOperator<T> {
    if (items === null || typeof (items as Partial<Iterable<T>>)[Symbol.iterator] !== 'function') {
      throw new WeirError(ApiErrorCode.INVALID_FUNCTION, `fromCollection() takes an array or another iterable, got ${String(items)}`);
    }
    return this.#builder.addSource(new CollectionSource<T>(Object.freeze([...items])), 'Collection Source');
  }

  /**
   * Names the job. Unlike Flink it does not start the job: Weir builds the graph from
   * whatever the main defined once it returns, so calling it is optional.
   */
  execute(jobName?: string): void {
    if (jobName !== undefined && jobName.length > 0) this.#jobName = jobName;
  }

  /** The graph defined so far; `defaultJobName` applies when `execute(name)` was not called. */
  getStreamGraph(defaultJobName = 'job'): StreamGraph {
    return generateStreamGraph(this.#jobName ?? defaultJobName, this.#builder.transformations, {
      parallelism: this.#parallelism,
      maxParallelism: this.#maxParallelism,
      bufferTimeoutMs: this.#bufferTimeoutMs,
      autoWatermarkIntervalMs: this.#config.getAutoWatermarkInterval(),
      objectReuse: this.#config.isObjectReuseEnabled(),
      checkpointing: this.#checkpointConfig.toSettings(),
      stateBackend: this.#stateBackend?.settings,
      restartStrategy: this.#restartStrategy?.settings,
    });
  }
}
