import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { Sink } from '../connector/types.ts';
import type { AnySource } from '../connector/splits.ts';
import type { WatermarkStrategy } from '../time/watermark-strategy.ts';
import type { KeySelector } from '../functions/types.ts';
import { PartitionerKind, type OperatorSpec } from '../graph/stream-graph.ts';
import { ConnectedStreams } from './connected-streams.ts';
import { BroadcastConnectedStream, BroadcastStream, requireBroadcastDescriptors } from './broadcast-stream.ts';
import type { DataStream } from './data-stream.ts';
import { DataStreamSink } from './data-stream-sink.ts';
import { KeyedStream } from './keyed-stream.ts';
import { WindowedStream } from './windowed-stream.ts';
import { AllWindowedStream } from './all-windowed-stream.ts';
import type { WindowAssigner } from '../windowing/window-assigner.ts';
import type { Window } from '../windowing/windows.ts';
import { toKeySelector } from './normalize.ts';
import { SingleOutputStreamOperator } from './single-output-stream-operator.ts';
import { Transformation, type StreamRef, type TransformationInput } from './transformation.ts';
import { requireUid } from './validation.ts';
import { requireType } from '../types/row-type.ts';

/**
 * Collects the transformations of one environment. It is also where stream objects of
 * the other classes are made: DataStream only imports these classes as types, which keeps
 * the DataStream ⇄ subclass import cycle out of module evaluation.
 */
export class JobBuilder {
  readonly #transformations: Transformation[] = [];
  readonly #byUid = new Map<string, Transformation>();

  get transformations(): readonly Transformation[] {
    return this.#transformations;
  }

  addSource<T>(source: AnySource<T>, name: string, watermarkStrategy?: WatermarkStrategy<unknown>): SingleOutputStreamOperator<T> {
    const spec: OperatorSpec = { kind: 'source', source: source as AnySource<unknown>, ...(watermarkStrategy === undefined ? {} : { watermarkStrategy }) };
    const node = this.#add(spec, name, []);
    if (source.producedType !== undefined) node.outputType = requireType(source.producedType, `the producedType of source '${name}'`);
    return new SingleOutputStreamOperator<T>(this, node);
  }

  addOperator<O>(spec: OperatorSpec, name: string, inputs: readonly TransformationInput[]): SingleOutputStreamOperator<O> {
    return new SingleOutputStreamOperator<O>(this, this.#add(spec, name, inputs));
  }

  addSink<T>(sink: Sink<unknown>, inputs: readonly TransformationInput[]): DataStreamSink<T> {
    return new DataStreamSink<T>(this, this.#add({ kind: 'sink', sink }, 'Sink', inputs));
  }

  /** The job's collect sink (one subtask, as Flink's): its records go to the JobManager for the submitter to fetch. */
  addCollectSink<T>(inputs: readonly TransformationInput[]): DataStreamSink<T> {
    const sink = new DataStreamSink<T>(this, this.#add({ kind: 'collect' }, 'Collect Sink', inputs));
    return sink.setParallelism(1);
  }

  keyed<T, K>(refs: readonly StreamRef[], selector: KeySelector<T, K>): KeyedStream<T, K> {
    const keySelector = toKeySelector(selector, 'keyBy()');
    return new KeyedStream<T, K>(
      this,
      refs.map((ref) => ({ ...ref, partitioner: PartitionerKind.HASH, keySelector })),
      selector,
    );
  }

  windowed<T, K, W extends Window>(stream: KeyedStream<T, K>, assigner: WindowAssigner<T, W>): WindowedStream<T, K, W> {
    return new WindowedStream<T, K, W>(stream, assigner);
  }

  allWindowed<T, W extends Window>(windowed: WindowedStream<T, number, W>): AllWindowedStream<T, W> {
    return new AllWindowedStream<T, W>(windowed);
  }

  connected<T1, T2>(first: DataStream<T1>, second: DataStream<T2>): ConnectedStreams<T1, T2> {
    return new ConnectedStreams(this, first, second);
  }

  broadcastStream<T>(refs: readonly StreamRef[], descriptors: readonly unknown[]): BroadcastStream<T> {
    return new BroadcastStream<T>(this, refs, requireBroadcastDescriptors(descriptors));
  }

  isBroadcastStream(stream: unknown): stream is BroadcastStream<unknown> {
    return stream instanceof BroadcastStream;
  }

  broadcastConnected<T1, T2>(first: DataStream<T1>, broadcast: BroadcastStream<T2>): BroadcastConnectedStream<T1, T2> {
    return new BroadcastConnectedStream(this, first, broadcast);
  }

  setUid(node: Transformation, uid: string): void {
    requireUid(uid);
    const holder = this.#byUid.get(uid);
    if (holder !== undefined && holder !== node) {
      throw new WeirError(
        ApiErrorCode.DUPLICATE_UID,
        `uid '${uid}' is already used by operator '${holder.name}'; every operator needs its own uid, as state is restored by it`,
      );
    }
    if (node.uid !== undefined) this.#byUid.delete(node.uid);
    node.uid = uid;
    this.#byUid.set(uid, node);
  }

  requireSameJob(stream: { readonly builder: JobBuilder }, call: string): void {
    if (stream.builder !== this) {
      throw new WeirError(
        ApiErrorCode.INVALID_GRAPH,
        `${call} got a stream of another StreamExecutionEnvironment; build the whole job on the environment the job's main receives`,
      );
    }
  }

  #add(spec: OperatorSpec, name: string, inputs: readonly TransformationInput[]): Transformation {
    const node = new Transformation(this.#transformations.length, spec, name, inputs);
    this.#transformations.push(node);
    return node;
  }
}
