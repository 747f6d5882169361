import type { Sink } from '../connector/types.ts';
import type { AnySource } from '../connector/splits.ts';
import type { WatermarkStrategy } from '../time/watermark-strategy.ts';
import type { Evictor } from '../windowing/evictor.ts';
import type { Trigger } from '../windowing/trigger.ts';
import type { WindowAssigner } from '../windowing/window-assigner.ts';
import type { AggregateFunction, ProcessWindowFunction } from '../windowing/window-functions.ts';
import type { Window } from '../windowing/windows.ts';
import type { TypeInformation } from '../types/type-information.ts';
import type { MapStateDescriptor } from '../state/types.ts';
import type { BroadcastProcessFunction, KeyedBroadcastProcessFunction } from '../functions/broadcast.ts';
import type { AsyncFunction, AsyncWaitSettings } from '../functions/async.ts';
import type {
  CoProcessFunction,
  KeyedCoProcessFunction,
  FilterFunction,
  FlatMapFunction,
  KeyedProcessFunction,
  MapFunction,
  ProcessFunction,
  ReduceFunction,
  KeySelector,
} from '../functions/types.ts';

/**
 * The StreamGraph is what running a job module's default export builds: one node per
 * operator, with the user's functions attached. It is rebuilt identically (same args) in the
 * JobManager, to plan the job, and in every TaskManager task, to instantiate its operators.
 * Lambdas passed to `map` and friends are normalized into the object forms below, so the
 * runtime only ever sees objects.
 */
export interface StreamGraph {
  readonly jobName: string;
  readonly nodes: readonly StreamNode[];
  readonly config: ExecutionConfig;
}

/** How an edge distributes records to the downstream subtasks (Flink's StreamPartitioner kinds). */
export const PartitionerKind = {
  /** Subtask i sends to subtask i; the only partitioner that allows chaining. */
  FORWARD: 'forward',
  /** Round-robin over all downstream subtasks. */
  REBALANCE: 'rebalance',
  /** By key group of the edge's key selector (keyBy). */
  HASH: 'hash',
  /** Every record to every downstream subtask. */
  BROADCAST: 'broadcast',
} as const;
/** One of the PartitionerKind values. */
export type PartitionerKind = (typeof PartitionerKind)[keyof typeof PartitionerKind];

/** The kinds of operator a StreamNode runs. */
export const OperatorKind = {
  SOURCE: 'source',
  MAP: 'map',
  FILTER: 'filter',
  FLAT_MAP: 'flatMap',
  PROCESS: 'process',
  KEYED_PROCESS: 'keyedProcess',
  REDUCE: 'reduce',
  CO_PROCESS: 'coProcess',
  TIMESTAMPS_AND_WATERMARKS: 'timestampsAndWatermarks',
  WINDOW: 'window',
  BROADCAST_PROCESS: 'broadcastProcess',
  ASYNC_WAIT: 'asyncWait',
  SINK: 'sink',
  COLLECT: 'collect',
} as const;
/** One of the OperatorKind values. */
export type OperatorKind = (typeof OperatorKind)[keyof typeof OperatorKind];

/** What a node does; `key` is set on operators that run on a KeyedStream (keyed state works there). */
export type OperatorSpec =
  | {
      readonly kind: 'source';
      readonly source: AnySource<unknown>;
      /** From `env.fromSource(source, strategy, name)`: timestamps and watermarks per reader (and split). */
      readonly watermarkStrategy?: WatermarkStrategy<unknown>;
    }
  | { readonly kind: 'timestampsAndWatermarks'; readonly strategy: WatermarkStrategy<unknown> }
  | { readonly kind: 'window'; readonly key: KeySelector<unknown, unknown>; readonly window: WindowSpec }
  | { readonly kind: 'map'; readonly fn: MapFunction<unknown, unknown>; readonly key?: KeySelector<unknown, unknown> }
  | { readonly kind: 'filter'; readonly fn: FilterFunction<unknown>; readonly key?: KeySelector<unknown, unknown> }
  | { readonly kind: 'flatMap'; readonly fn: FlatMapFunction<unknown, unknown>; readonly key?: KeySelector<unknown, unknown> }
  | { readonly kind: 'process'; readonly fn: ProcessFunction<unknown, unknown> }
  | { readonly kind: 'keyedProcess'; readonly fn: KeyedProcessFunction<unknown, unknown, unknown>; readonly key: KeySelector<unknown, unknown> }
  | { readonly kind: 'reduce'; readonly fn: ReduceFunction<unknown>; readonly key: KeySelector<unknown, unknown> }
  | {
      readonly kind: 'coProcess';
      readonly fn: CoProcessFunction<unknown, unknown, unknown> | KeyedCoProcessFunction<unknown, unknown, unknown, unknown>;
      /** Present when both inputs were keyed (`connect(a.keyBy(f), b.keyBy(g))` or `connect(...).keyBy(f, g)`). */
      readonly keys?: readonly [KeySelector<unknown, unknown>, KeySelector<unknown, unknown>];
    }
  | {
      readonly kind: 'broadcastProcess';
      /** A KeyedBroadcastProcessFunction when `key` is set, else a BroadcastProcessFunction. */
      readonly fn: BroadcastProcessFunction<unknown, unknown, unknown> | KeyedBroadcastProcessFunction<unknown, unknown, unknown, unknown>;
      /** The broadcast states of `broadcast(...)`: operator state, the same copy in every subtask. */
      readonly descriptors: readonly MapStateDescriptor<unknown, unknown>[];
      /** The first input's key selector when it is a KeyedStream; input 1 is the broadcast input. */
      readonly key?: KeySelector<unknown, unknown>;
    }
  | {
      readonly kind: 'asyncWait';
      readonly fn: AsyncFunction<unknown, unknown>;
      readonly settings: AsyncWaitSettings;
    }
  | { readonly kind: 'sink'; readonly sink: Sink<unknown> }
  /** Flink's collect sink: the records go to the JobManager, where the job's submitter fetches them (`weir sql`'s SELECT). */
  | { readonly kind: 'collect' };

/** A keyed window operator: `keyBy(...).window(assigner)[.trigger/.allowedLateness/.sideOutputLateData].reduce/aggregate/process/apply(...)`. */
export interface WindowSpec {
  readonly assigner: WindowAssigner<unknown, Window>;
  readonly trigger: Trigger<unknown, Window>;
  /**
   * With an evictor the window keeps every element with its timestamp, whatever the function
   * (Flink's EvictingWindowOperator): `reduce` and `aggregate` run over what is left when it fires.
   */
  readonly evictor?: Evictor<unknown, Window> | undefined;
  readonly allowedLatenessMs: number;
  /** The side output that gets elements too late for their windows; dropped without one. */
  readonly lateDataTag: string | undefined;
  readonly function: WindowFunctionSpec;
}

/**
 * What a window keeps and how it is evaluated: `reduce` and `aggregate` keep one value per
 * window, updated per element, optionally handed to a ProcessWindowFunction when the window
 * fires; `process` keeps every element of the window in a list.
 */
export type WindowFunctionSpec =
  | { readonly kind: 'reduce'; readonly reduce: ReduceFunction<unknown>; readonly process: ProcessWindowFunction<unknown, unknown, unknown, Window> | undefined }
  | {
      readonly kind: 'aggregate';
      readonly aggregate: AggregateFunction<unknown, unknown, unknown>;
      readonly process: ProcessWindowFunction<unknown, unknown, unknown, Window> | undefined;
    }
  | { readonly kind: 'process'; readonly process: ProcessWindowFunction<unknown, unknown, unknown, Window> };

/** One operator of the StreamGraph (Flink's StreamNode), before chaining. */
export interface StreamNode {
  /** Dense index into `StreamGraph.nodes`, in creation order. */
  readonly id: number;
  readonly spec: OperatorSpec;
  /** Display name: `.name()` or a default such as "Map" or the source's name. */
  readonly name: string;
  /** The user's `.uid()`, if any. */
  readonly uid: string | undefined;
  /** 32 lowercase hex chars: a hash of the uid, or generated deterministically from the topology. */
  readonly operatorId: string;
  readonly parallelism: number;
  readonly maxParallelism: number;
  /** Incoming edges; for two-input operators, `inputIndex` tells which input. */
  readonly inputs: readonly StreamEdge[];
  /**
   * The declared type of the records the node emits: `returns()`, a source's producedType, or
   * for a filter or reduce its input's type; undefined when undeclared. Records between tasks
   * are serialized by it.
   */
  readonly outputType: TypeInformation<unknown> | undefined;
  /** The declared types of its side outputs, by tag ID: the OutputTag's type, when it was given one. */
  readonly sideOutputTypes: ReadonlyMap<string, TypeInformation<unknown>>;
}

/** A connection between two StreamNodes (Flink's StreamEdge). */
export interface StreamEdge {
  readonly sourceId: number;
  readonly targetId: number;
  /** 0 for single-input operators; 0 or 1 for `connect`. */
  readonly inputIndex: 0 | 1;
  readonly partitioner: PartitionerKind;
  /** Set when `partitioner` is HASH; records go by key group with the target node's max parallelism. */
  readonly keySelector?: KeySelector<unknown, unknown>;
  /** Set on the edge of a side output (`getSideOutput(tag)`): it carries only what was emitted to the tag with this ID. */
  readonly outputTag?: string;
}

/** The job-wide settings the environment collected (Flink's ExecutionConfig plus the checkpoint, state backend and restart settings). */
export interface ExecutionConfig {
  /** Default parallelism for operators without `setParallelism`. */
  readonly parallelism: number;
  /**
   * Max parallelism (number of key groups) for operators without `setMaxParallelism`; -1
   * derives it per operator from its parallelism (`defaultMaxParallelism`, DESIGN.md's formula).
   * `StreamNode.maxParallelism` is always resolved.
   */
  readonly maxParallelism: number;
  /** Flush partially filled output buffers after this many ms; 0 flushes after every record, -1 only when full. */
  readonly bufferTimeoutMs: number;
  /** Sources and timestamp assigners emit watermarks this often (pipeline.auto-watermark-interval); 0 turns periodic watermarks off. */
  readonly autoWatermarkIntervalMs: number;
  /** env.getConfig().enableObjectReuse(): records between tasks of one TaskManager are handed over without serializing. */
  readonly objectReuse: boolean;
  /** What the job set with enableCheckpointing and getCheckpointConfig(); undefined when it did not call enableCheckpointing. */
  readonly checkpointing: CheckpointSettings | undefined;
  /** env.setStateBackend(...); undefined leaves it to the cluster's state.backend. */
  readonly stateBackend: StateBackendSettings | undefined;
  /** env.setRestartStrategy(...); undefined leaves it to the cluster's restart-strategy.*. */
  readonly restartStrategy: RestartStrategySettings | undefined;
}

/** Only what the job set: an undefined field falls back to the cluster's execution.checkpointing.* key. */
export interface CheckpointSettings {
  readonly intervalMs: number;
  readonly mode?: 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';
  readonly minPauseMs?: number;
  readonly timeoutMs?: number;
  readonly maxConcurrent?: number;
  readonly tolerableFailures?: number;
  readonly externalizedCleanup?: 'NO_EXTERNALIZED_CHECKPOINTS' | 'DELETE_ON_CANCELLATION' | 'RETAIN_ON_CANCELLATION';
  /** enableUnalignedCheckpoints(). */
  readonly unaligned?: boolean;
  /** setAlignedCheckpointTimeout(ms): with unaligned checkpoints, start aligned and switch after this long. */
  readonly alignedCheckpointTimeoutMs?: number;
}

/** The state backend a job set with `env.setStateBackend`. */
export type StateBackendSettings =
  /** MemoryStateBackend: heap state, snapshots inline in the acknowledgement and `_metadata`. */
  | { readonly kind: 'memory'; readonly maxStateSize: number }
  /** FsStateBackend: heap state, snapshots as files below `checkpointDir` (else state.checkpoints.dir). */
  | { readonly kind: 'filesystem'; readonly checkpointDir: string | undefined; readonly asyncSnapshots: boolean }
  /** LevelStateBackend (alias RocksDBStateBackend): LevelDB on the TaskManager's disk, snapshots below `checkpointDir` (else state.checkpoints.dir). */
  | { readonly kind: 'level'; readonly checkpointDir: string | undefined; readonly incremental: boolean };

/** The restart strategy a job set with `env.setRestartStrategy`. */
export type RestartStrategySettings =
  | { readonly kind: 'none' }
  | { readonly kind: 'fixed-delay'; readonly attempts: number; readonly delayMs: number }
  | {
      readonly kind: 'exponential-delay';
      readonly initialBackoffMs: number;
      readonly maxBackoffMs: number;
      readonly multiplier: number;
      readonly resetThresholdMs: number;
      readonly jitter: number;
    }
  | { readonly kind: 'failure-rate'; readonly maxFailuresPerInterval: number; readonly intervalMs: number; readonly delayMs: number };
