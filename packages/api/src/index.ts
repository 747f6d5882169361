export * from './errors.ts';

export {
  StreamExecutionEnvironment,
  DEFAULT_ENVIRONMENT,
  type EnvironmentDefaults,
} from './environment/stream-execution-environment.ts';
export { WatermarkStrategy } from './environment/watermark-strategy.ts';
export { CollectionSource, CollectionSourceReader } from './environment/collection-source.ts';

export { DataStream } from './streams/data-stream.ts';
export { SingleOutputStreamOperator } from './streams/single-output-stream-operator.ts';
export { KeyedStream } from './streams/keyed-stream.ts';
export { ConnectedStreams } from './streams/connected-streams.ts';
export { DataStreamSink } from './streams/data-stream-sink.ts';

export {
  RichFunction,
  RichMapFunction,
  RichFilterFunction,
  RichFlatMapFunction,
  ProcessFunction,
  KeyedProcessFunction,
  CoProcessFunction,
  isRichFunction,
  type KeySelector,
  type MapFunction,
  type FilterFunction,
  type FlatMapFunction,
  type ReduceFunction,
  type ProcessContext,
  type KeyedProcessContext,
} from './functions/types.ts';
export type { Collector } from './functions/collector.ts';
export type { RuntimeContext } from './functions/runtime-context.ts';

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

export { Types, type TypeOf } from './types/types.ts';
export { resolveStateSchema, type StateSchemaResolution } from './types/schema-compatibility.ts';
export type { TypeInformation, TypeDescription, BasicKind, RowDescription, AvroDescription, CustomDescription } from './types/type-information.ts';
export type { FieldWithDefault, RowField, RowOf } from './types/row-type.ts';
export type { CustomTypeOptions } from './types/custom-type.ts';

export {
  Boundedness,
  InputStatus,
  type ConnectorContext,
  type ReaderOutput,
  type SourceReader,
  type Source,
  type SinkWriter,
  type Sink,
  type Committer,
} from './connector/types.ts';

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
  type ExecutionConfig,
  type CheckpointSettings,
  type StateBackendSettings,
  type RestartStrategySettings,
} from './graph/stream-graph.ts';
export type { JobGraph, JobVertex, JobEdge, JobOperator } from './graph/job-graph.ts';
export { buildStreamGraph } from './graph/build-stream-graph.ts';
export { buildJobGraph } from './graph/build-job-graph.ts';
export { operatorIdForUid, operatorsWithoutUid } from './graph/operator-id.ts';
