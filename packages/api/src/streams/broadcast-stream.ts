import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { BroadcastProcessFunction, KeyedBroadcastProcessFunction } from '../functions/broadcast.ts';
import type { KeySelector } from '../functions/types.ts';
import { PartitionerKind } from '../graph/stream-graph.ts';
import { MapStateDescriptor } from '../state/types.ts';
import type { DataStream } from './data-stream.ts';
import type { JobBuilder } from './job-builder.ts';
import { KeyedStream } from './keyed-stream.ts';
import type { SingleOutputStreamOperator } from './single-output-stream-operator.ts';
import { inputsFrom, type StreamRef } from './transformation.ts';

/**
 * A stream every record of which goes to every parallel instance of the operator it is
 * connected to, with the broadcast states that operator keeps (Flink's BroadcastStream): what
 * `stream.broadcast(descriptor, ...)` returns.
 */
export class BroadcastStream<T> {
  /** @internal */
  readonly refs: readonly StreamRef[];

  constructor(
    /** @internal */
    readonly builder: JobBuilder,
    refs: readonly StreamRef[],
    readonly descriptors: readonly MapStateDescriptor<unknown, unknown>[],
  ) {
    this.refs = refs.map((ref) => ({ node: ref.node, partitioner: PartitionerKind.BROADCAST, ...(ref.outputTag === undefined ? {} : { outputTag: ref.outputTag }) }));
  }
}

/** The MapStateDescriptors of `broadcast(...)`, checked: at least one, each a MapStateDescriptor, names unique. */
export function requireBroadcastDescriptors(descriptors: readonly unknown[]): MapStateDescriptor<unknown, unknown>[] {
  const names = new Set<string>();
  for (const descriptor of descriptors) {
    if (!(descriptor instanceof MapStateDescriptor)) {
      throw new WeirError(
        ApiErrorCode.INVALID_BROADCAST_STATE,
        `broadcast() takes the MapStateDescriptors of the broadcast state, such as new MapStateDescriptor('rules', Types.STRING, ruleType), got ${String(descriptor)}`,
      );
    }
    if (names.has(descriptor.name)) throw new WeirError(ApiErrorCode.INVALID_BROADCAST_STATE, `broadcast() got two descriptors named '${descriptor.name}'; each broadcast state needs its own name`);
    names.add(descriptor.name);
  }
  return descriptors as MapStateDescriptor<unknown, unknown>[];
}

/**
 * A stream connected to a BroadcastStream (Flink's BroadcastConnectedStream). `process` takes a
 * KeyedBroadcastProcessFunction when the first stream is keyed, a BroadcastProcessFunction when not.
 */
export class BroadcastConnectedStream<IN1, IN2> {
  constructor(
    readonly builder: JobBuilder,
    readonly first: DataStream<IN1>,
    readonly broadcast: BroadcastStream<IN2>,
  ) {}

  /** Applies a BroadcastProcessFunction, or a KeyedBroadcastProcessFunction when the other stream is keyed (Flink's BroadcastConnectedStream.process). */
  process<O>(fn: BroadcastProcessFunction<IN1, IN2, O> | KeyedBroadcastProcessFunction<unknown, IN1, IN2, O>): SingleOutputStreamOperator<O> {
    const { first, broadcast } = this;
    const keyed = first instanceof KeyedStream;
    if (keyed && !(fn instanceof KeyedBroadcastProcessFunction)) {
      throw new WeirError(
        ApiErrorCode.INVALID_BROADCAST_STATE,
        'a keyed stream connected to a broadcast stream takes a KeyedBroadcastProcessFunction (as in Flink); got ' + describe(fn),
      );
    }
    if (!keyed && !(fn instanceof BroadcastProcessFunction)) {
      throw new WeirError(
        ApiErrorCode.INVALID_BROADCAST_STATE,
        `a non-keyed stream connected to a broadcast stream takes a BroadcastProcessFunction (keyBy first for a KeyedBroadcastProcessFunction); got ${describe(fn)}`,
      );
    }
    const key = keyed ? { key: (first as KeyedStream<IN1, unknown>).getKeySelector() as KeySelector<unknown, unknown> } : {};
    return this.builder.addOperator(
      { kind: 'broadcastProcess', fn: fn as BroadcastProcessFunction<unknown, unknown, unknown>, descriptors: broadcast.descriptors, ...key },
      'Co-Process-Broadcast' + (keyed ? '-Keyed' : ''),
      [...inputsFrom(first.refs, 0), ...inputsFrom(broadcast.refs, 1)],
    );
  }
}

function describe(fn: unknown): string {
  if (typeof fn === 'object' && fn !== null) return `an instance of ${fn.constructor?.name ?? 'Object'}`;
  return String(fn);
}
