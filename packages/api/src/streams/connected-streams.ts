import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { KeyedCoProcessFunction, type CoProcessFunction, type KeySelector } from '../functions/types.ts';
import type { DataStream } from './data-stream.ts';
import type { JobBuilder } from './job-builder.ts';
import { KeyedStream } from './keyed-stream.ts';
import { toCoProcessFunction } from './normalize.ts';
import type { SingleOutputStreamOperator } from './single-output-stream-operator.ts';
import { inputsFrom } from './transformation.ts';

/** Two streams feeding one two-input operator (Flink's ConnectedStreams). */
export class ConnectedStreams<T1, T2> {
  constructor(
    readonly builder: JobBuilder,
    readonly first: DataStream<T1>,
    readonly second: DataStream<T2>,
  ) {}

  /** Keys both inputs, so records of equal keys from either side meet in the same subtask and keyed state. */
  keyBy<K>(selector1: KeySelector<T1, K>, selector2: KeySelector<T2, K>): ConnectedStreams<T1, T2> {
    return new ConnectedStreams(this.builder, this.first.keyBy(selector1), this.second.keyBy(selector2));
  }

  /** Runs keyed (keyed state and timers work) when both inputs are keyed, as in Flink; a KeyedCoProcessFunction needs keyed inputs. */
  process<O>(fn: CoProcessFunction<T1, T2, O> | KeyedCoProcessFunction<unknown, T1, T2, O>): SingleOutputStreamOperator<O> {
    const { first, second } = this;
    const keys =
      first instanceof KeyedStream && second instanceof KeyedStream
        ? { keys: [first.getKeySelector(), second.getKeySelector()] as [KeySelector<unknown, unknown>, KeySelector<unknown, unknown>] }
        : {};
    if (fn instanceof KeyedCoProcessFunction && keys.keys === undefined) {
      throw new WeirError(
        ApiErrorCode.INVALID_GRAPH,
        'a KeyedCoProcessFunction needs both inputs keyed: a.connect(b).keyBy(keyOfA, keyOfB).process(fn), or connect two keyed streams',
      );
    }
    return this.builder.addOperator({ kind: 'coProcess', fn: toCoProcessFunction(fn), ...keys }, fn instanceof KeyedCoProcessFunction ? 'KeyedCo-Process' : 'Co-Process', [
      ...inputsFrom(first.refs, 0),
      ...inputsFrom(second.refs, 1),
    ]);
  }
}
