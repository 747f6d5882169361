import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { Sink } from '../connector/types.ts';
import type { Collector } from '../functions/collector.ts';
import type { FilterFunction, FlatMapFunction, KeySelector, MapFunction, ProcessFunction } from '../functions/types.ts';
import { PartitionerKind } from '../graph/stream-graph.ts';
import { PrintSink } from '../functions/print-sink.ts';
import type { ConnectedStreams } from './connected-streams.ts';
import type { BroadcastConnectedStream, BroadcastStream } from './broadcast-stream.ts';
import type { MapStateDescriptor } from '../state/types.ts';
import type { DataStreamSink } from './data-stream-sink.ts';
import type { JobBuilder } from './job-builder.ts';
import type { KeyedStream } from './keyed-stream.ts';
import type { AllWindowedStream } from './all-windowed-stream.ts';
import type { WindowAssigner } from '../windowing/window-assigner.ts';
import type { Window } from '../windowing/windows.ts';
import { toFilterFunction, toFlatMapFunction, toMapFunction, toProcessFunction, toSink } from './normalize.ts';
import type { SingleOutputStreamOperator } from './single-output-stream-operator.ts';
import { inputsFrom, type StreamRef } from './transformation.ts';
import { isWatermarkStrategy, type WatermarkStrategy } from '../time/watermark-strategy.ts';

/**
 * A stream of records of type T (Flink's DataStream). Every method adds to the job's graph;
 * nothing runs until the job is deployed.
 */
export class DataStream<T> {
  /** Job authors get streams from the environment; they never construct one. */
  constructor(
    /** @internal The graph this stream belongs to. */
    readonly builder: JobBuilder,
    /** @internal The node(s) this stream reads from: one, or several after union(). */
    readonly refs: readonly StreamRef[],
  ) {}

  /** Set on operators that run on a KeyedStream, where keyed state works. */
  protected operatorKey(): { key: KeySelector<unknown, unknown> } | Record<never, never> {
    return {};
  }

  /** Applies `fn` to every record (Flink's map): a plain function or a MapFunction/RichMapFunction instance. */
  map<O>(fn: MapFunction<T, O> | ((value: T) => O)): SingleOutputStreamOperator<O> {
    return this.builder.addOperator({ kind: 'map', fn: toMapFunction(fn), ...this.operatorKey() }, 'Map', inputsFrom(this.refs, 0));
  }

  /** Keeps the records for which `fn` returns true (Flink's filter). */
  filter(fn: FilterFunction<T> | ((value: T) => boolean)): SingleOutputStreamOperator<T> {
    return this.builder.addOperator(
      { kind: 'filter', fn: toFilterFunction(fn), ...this.operatorKey() },
      'Filter',
      inputsFrom(this.refs, 0),
    );
  }

  /** Emits zero or more records per record through the collector (Flink's flatMap). */
  flatMap<O>(fn: FlatMapFunction<T, O> | ((value: T, out: Collector<O>) => void)): SingleOutputStreamOperator<O> {
    return this.builder.addOperator(
      { kind: 'flatMap', fn: toFlatMapFunction(fn), ...this.operatorKey() },
      'Flat Map',
      inputsFrom(this.refs, 0),
    );
  }

  /** Applies a ProcessFunction: records with timestamps and side outputs (Flink's process); on a KeyedStream see KeyedStream.process. */
  process<O>(fn: ProcessFunction<T, O>): SingleOutputStreamOperator<O> {
    return this.builder.addOperator({ kind: 'process', fn: toProcessFunction(fn) }, 'Process', inputsFrom(this.refs, 0));
  }

  /**
   * Gives records event-time timestamps and emits watermarks from here on (Flink's
   * assignTimestampsAndWatermarks); watermarks from upstream are dropped, except the final one
   * at the end of input. Prefer a strategy on the source (`env.fromSource(source, strategy, name)`),
   * which tracks watermarks per split.
   */
  assignTimestampsAndWatermarks(strategy: WatermarkStrategy<T>): SingleOutputStreamOperator<T> {
    if (!isWatermarkStrategy(strategy)) {
      throw new WeirError(
        ApiErrorCode.INVALID_WATERMARK_STRATEGY,
        `assignTimestampsAndWatermarks() takes a WatermarkStrategy, such as WatermarkStrategy.forBoundedOutOfOrderness(5000).withTimestampAssigner(...), got ${String(strategy)}`,
      );
    }
    return this.builder.addOperator(
      { kind: 'timestampsAndWatermarks', strategy: strategy as WatermarkStrategy<unknown> },
      'Timestamps/Watermarks',
      inputsFrom(this.refs, 0),
    );
  }

  /** Partitions by key group of `selector`'s key; operators on the result may use keyed state. */
  keyBy<K>(selector: KeySelector<T, K>): KeyedStream<T, K> {
    return this.builder.keyed(this.refs, selector);
  }

  /**
   * Windows over the whole stream (Flink's windowAll): one window operator at parallelism 1.
   * For windows per key, `keyBy(...).window(...)` scales.
   */
  windowAll<W extends Window>(assigner: WindowAssigner<T, W>): AllWindowedStream<T, W> {
    return this.builder.allWindowed(this.keyBy(() => 0).window(assigner));
  }

  /** One stream of the records of all; each input keeps its own partitioning. */
  union(...others: DataStream<T>[]): DataStream<T> {
    const refs = [...this.refs];
    for (const other of others) {
      this.builder.requireSameJob(other, 'union()');
      for (const ref of other.refs) {
        if (refs.some((r) => r.node === ref.node && r.outputTag === ref.outputTag)) {
          throw new WeirError(
            ApiErrorCode.INVALID_GRAPH,
            `union() got the stream of '${ref.node.name}' twice; union each stream once (use flatMap to emit a record twice)`,
          );
        }
        refs.push(ref);
      }
    }
    return new DataStream<T>(this.builder, refs);
  }

  /**
   * Two inputs for one CoProcessFunction; they may have different types. Connected to a
   * BroadcastStream (`rules.broadcast(descriptor)`), a (Keyed)BroadcastProcessFunction with
   * broadcast state (Flink's broadcast state pattern).
   */
  connect<T2>(other: BroadcastStream<T2>): BroadcastConnectedStream<T, T2>;
  connect<T2>(other: DataStream<T2>): ConnectedStreams<T, T2>;
  connect<T2>(other: DataStream<T2> | BroadcastStream<T2>): ConnectedStreams<T, T2> | BroadcastConnectedStream<T, T2> {
    this.builder.requireSameJob(other, 'connect()');
    if (this.builder.isBroadcastStream(other)) return this.builder.broadcastConnected(this, other);
    return this.builder.connected(this, other);
  }

  /** Round-robin over all downstream subtasks. */
  rebalance(): DataStream<T> {
    return this.#withPartitioner(PartitionerKind.REBALANCE);
  }

  /**
   * Every record to every downstream subtask. With MapStateDescriptors, a BroadcastStream to
   * `connect` to another stream: the operator keeps these broadcast states (Flink's
   * broadcast(MapStateDescriptor...)), the same copy in each of its subtasks.
   */
  broadcast(): DataStream<T>;
  broadcast(...descriptors: [MapStateDescriptor<unknown, unknown>, ...MapStateDescriptor<unknown, unknown>[]]): BroadcastStream<T>;
  broadcast(...descriptors: MapStateDescriptor<unknown, unknown>[]): DataStream<T> | BroadcastStream<T> {
    if (descriptors.length === 0) return this.#withPartitioner(PartitionerKind.BROADCAST);
    return this.builder.broadcastStream(this.refs, descriptors);
  }

  /** Subtask i to subtask i: the downstream operator must have the same parallelism. */
  forward(): DataStream<T> {
    return this.#withPartitioner(PartitionerKind.FORWARD);
  }

  /** Writes the stream to `sink`, any object with createWriter() (Flink's sinkTo). */
  sinkTo(sink: Sink<T>): DataStreamSink<T> {
    return this.builder.addSink(toSink(sink), inputsFrom(this.refs, 0));
  }

  /**
   * Sends the records to the JobManager, which keeps them in a bounded buffer until the job's
   * submitter fetches them (JobService.FetchResults; `weir sql` shows a SELECT's rows so).
   * Flink's collectAsync() returns an iterator in the job's main; here the client reads them,
   * since the job's main runs on the JobManager. One per job; records must be MessagePack-able.
   */
  collectAsync(): DataStreamSink<T> {
    return this.builder.addCollectSink(inputsFrom(this.refs, 0));
  }

  /**
   * Prints each record's `String(record)` to stdout (Flink's print()): prefixed `<subtask>> `
   * when the sink runs with parallelism > 1, `<sinkIdentifier>> ` or `<sinkIdentifier>:<subtask>> `
   * with an identifier. For debugging: a slow reader of stdout back-pressures the job.
   */
  print(sinkIdentifier?: string): DataStreamSink<T> {
    return this.sinkTo(new PrintSink<T>(sinkIdentifier)).name('Print to Std. Out');
  }

  /** As print(), to stderr (Flink's printToErr()). */
  printToErr(sinkIdentifier?: string): DataStreamSink<T> {
    return this.sinkTo(new PrintSink<T>(sinkIdentifier, true)).name('Print to Std. Err');
  }

  #withPartitioner(partitioner: PartitionerKind): DataStream<T> {
    return new DataStream<T>(
      this.builder,
      this.refs.map((ref) => ({ node: ref.node, partitioner, ...(ref.outputTag === undefined ? {} : { outputTag: ref.outputTag }) })),
    );
  }
}
