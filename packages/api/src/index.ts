/**
 * Weir's DataStream API (Flink's flink-streaming-java): what a job imports to build its pipeline —
 * the execution environment, streams, functions, state, windows, time and connector interfaces.
 * Names follow Flink's; each class's comment says where Weir differs.
 *
 * @packageDocumentation
 * @module @weir/api
 */
export * from './errors.ts';

export {
  StreamExecutionEnvironment,
  DEFAULT_ENVIRONMENT,
  DEFAULT_AUTO_WATERMARK_INTERVAL_MS,
  type EnvironmentDefaults,
} from './environment/stream-execution-environment.ts';
export { EnvironmentConfig } from './environment/environment-config.ts';
export { WatermarkStrategy, isWatermarkStrategy } from './time/watermark-strategy.ts';
export {
  Watermark,
  type WatermarkOutput,
  type WatermarkGenerator,
  type WatermarkGeneratorSupplier,
  type WatermarkGeneratorSupplierContext,
  type TimestampAssigner,
  type TimestampAssignerSupplier,
  type RelativeClock,
} from './time/watermark.ts';
export { BoundedOutOfOrdernessWatermarks, AscendingTimestampsWatermarks, NoWatermarksGenerator, WatermarksWithIdleness } from './time/generators.ts';
export { CollectionSource, CollectionSourceReader, type CollectionSplit } from './environment/collection-source.ts';

export { DataStream } from './streams/data-stream.ts';
export { SingleOutputStreamOperator } from './streams/single-output-stream-operator.ts';
export { KeyedStream } from './streams/keyed-stream.ts';
export { ConnectedStreams } from './streams/connected-streams.ts';
export { BroadcastStream, BroadcastConnectedStream } from './streams/broadcast-stream.ts';
export { AsyncDataStream } from './streams/async-data-stream.ts';
export { DataStreamSink } from './streams/data-stream-sink.ts';
export { WindowedStream } from './streams/windowed-stream.ts';
export { AllWindowedStream } from './streams/all-windowed-stream.ts';

export {
  RichFunction,
  RichMapFunction,
  RichFilterFunction,
  RichFlatMapFunction,
  ProcessFunction,
  KeyedProcessFunction,
  CoProcessFunction,
  KeyedCoProcessFunction,
  isRichFunction,
  type KeySelector,
  type MapFunction,
  type FilterFunction,
  type FlatMapFunction,
  type ReduceFunction,
  type ProcessContext,
  type KeyedProcessContext,
  type OnTimerContext,
} from './functions/types.ts';
export { TimeDomain, type TimerService } from './functions/timer-service.ts';
export {
  BroadcastProcessFunction,
  KeyedBroadcastProcessFunction,
  type ReadOnlyBroadcastState,
  type BroadcastState,
  type BaseBroadcastContext,
  type ReadOnlyBroadcastContext,
  type BroadcastContext,
  type KeyedReadOnlyBroadcastContext,
  type KeyedBroadcastOnTimerContext,
  type KeyedBroadcastContext,
  type KeyedStateFunction,
  type StateOf,
} from './functions/broadcast.ts';
export {
  RichAsyncFunction,
  AsyncRetryStrategies,
  RetryPredicates,
  TimeUnit,
  asyncTimeoutError,
  type AsyncFunction,
  type ResultFuture,
  type AsyncRetryStrategy,
  type AsyncRetryPredicate,
  type AsyncWaitSettings,
  type AsyncOutputMode,
} from './functions/async.ts';
export { OutputTag } from './functions/output-tag.ts';
export { PrintSink } from './functions/print-sink.ts';
export { AggregationFunction, type AggregationType, type FieldExpression } from './functions/aggregation.ts';
export type { Collector } from './functions/collector.ts';
export type { RuntimeContext } from './functions/runtime-context.ts';
export type { Counter, Gauge, Meter, Histogram, HistogramStatistics, MetricGroup } from './metrics/types.ts';
export { SimpleCounter } from './metrics/simple-counter.ts';
export { MeterView } from './metrics/meter-view.ts';
export { DescriptiveStatisticsHistogram } from './metrics/descriptive-statistics-histogram.ts';

export {
  StateDescriptor,
  ValueStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  type ValueState,
  type ListState,
  type MapState,
  type ReducingState,
} from './state/types.ts';
export { StateTtlConfig, StateTtlConfigBuilder, UpdateType, StateVisibility } from './state/ttl.ts';

export { Window, TimeWindow, GlobalWindow } from './windowing/windows.ts';
export { Time } from './windowing/time.ts';
export {
  WindowAssigner,
  MergingWindowAssigner,
  isMergingAssigner,
  type WindowAssignerContext,
  type MergeCallback,
} from './windowing/window-assigner.ts';
export {
  TumblingEventTimeWindows,
  TumblingProcessingTimeWindows,
  SlidingEventTimeWindows,
  SlidingProcessingTimeWindows,
  EventTimeSessionWindows,
  ProcessingTimeSessionWindows,
  GlobalWindows,
  requireTimestamp,
  type SessionWindowTimeGapExtractor,
} from './windowing/assigners.ts';
export { Trigger, TriggerResult, type TriggerContext, type OnMergeContext } from './windowing/trigger.ts';
export { EventTimeTrigger, ProcessingTimeTrigger, CountTrigger, PurgingTrigger, NeverTrigger } from './windowing/triggers.ts';
export { ContinuousEventTimeTrigger, ContinuousProcessingTimeTrigger } from './windowing/continuous-triggers.ts';
export { DeltaTrigger } from './windowing/delta-trigger.ts';
export type { DeltaFunction, DeltaFunctionLike } from './windowing/delta-function.ts';
export { TimestampedValue, isEvictor, type Evictor, type EvictorContext } from './windowing/evictor.ts';
export { CountEvictor, TimeEvictor, DeltaEvictor } from './windowing/evictors.ts';
export {
  ProcessWindowFunction,
  ProcessAllWindowFunction,
  type AllWindowFunction,
  type ProcessAllWindowContext,
  type AggregateFunction,
  type WindowFunction,
  type ProcessWindowContext,
  type KeyedStateStore,
} from './windowing/window-functions.ts';

export { Types, type TypeOf } from './types/types.ts';
export { resolveStateSchema, type StateSchemaResolution } from './types/schema-compatibility.ts';
export type { TypeInformation, TypeDescription, BasicKind, RowDescription, AvroDescription, CustomDescription } from './types/type-information.ts';
export type { FieldWithDefault, RowField, RowOf } from './types/row-type.ts';
export type { CustomTypeOptions } from './types/custom-type.ts';
export { typeStructure, type TypeStructure, type PojoClass } from './types/type-structure.ts';

export {
  Boundedness,
  InputStatus,
  type ConnectorContext,
  type ReaderOutput,
  type SourceOutput,
  type SourceReader,
  type Source,
  type SinkWriter,
  type Sink,
  type Committer,
  type SinkJobSettings,
  type ExclusiveResource,
} from './connector/types.ts';
export {
  isSplitSource,
  type AnySource,
  type SourceSplit,
  type SourceReaderContext,
  type SplitSourceReader,
  type SplitEnumeratorContext,
  type SplitEnumerator,
  type SplitSource,
  type JobEndStatus,
} from './connector/splits.ts';
export { StaticSplitEnumerator, AvailabilitySignal } from './connector/static-split-enumerator.ts';
export { SplitEnumeratorRunner, type EnumeratorOutput, type EnumeratorRunnerOptions } from './connector/enumerator-runner.ts';

export {
  isCheckpointedFunction,
  isCheckpointListener,
  type CheckpointedFunction,
  type CheckpointListener,
  type FunctionInitializationContext,
  type FunctionSnapshotContext,
  type OperatorStateStore,
} from './functions/checkpointing.ts';

export { CheckpointingMode, ExternalizedCheckpointCleanup } from './checkpoint/checkpointing-mode.ts';
export { CheckpointConfig, MIN_CHECKPOINT_INTERVAL_MS } from './checkpoint/checkpoint-config.ts';
export { StateBackend, MemoryStateBackend, FsStateBackend, HashMapStateBackend, LevelStateBackend, RocksDBStateBackend, DEFAULT_MAX_STATE_SIZE } from './checkpoint/state-backend.ts';
export { RestartStrategies, RestartStrategyConfiguration } from './checkpoint/restart-strategies.ts';

export {
  PartitionerKind,
  OperatorKind,
  type StreamGraph,
  type StreamNode,
  type StreamEdge,
  type OperatorSpec,
  type WindowSpec,
  type WindowFunctionSpec,
  type ExecutionConfig,
  type CheckpointSettings,
  type StateBackendSettings,
  type RestartStrategySettings,
} from './graph/stream-graph.ts';
export type { JobGraph, JobVertex, JobEdge, JobOperator } from './graph/job-graph.ts';
export { buildStreamGraph } from './graph/build-stream-graph.ts';
export { buildJobGraph } from './graph/build-job-graph.ts';
export { operatorIdForUid, operatorsWithoutUid } from './graph/operator-id.ts';
export { exclusiveResourceKey, exclusiveResources } from './graph/exclusive-resources.ts';
export { WEIR_API_VERSION, apiVersionsCompatible } from './version.ts';
/** Re-exported so job code (and @weir/testing's job-side classes) can throw and match Weir's errors without importing @weir/common. */
export { WeirError, isWeirError } from '@weir/common';
