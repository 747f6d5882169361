import type { KeyedProcessFunction, KeySelector, ProcessFunction, ReduceFunction } from '../functions/types.ts';
import { DataStream } from './data-stream.ts';
import type { JobBuilder } from './job-builder.ts';
import { toKeyedProcessFunction, toReduceFunction } from './normalize.ts';
import type { SingleOutputStreamOperator } from './single-output-stream-operator.ts';
import { inputsFrom, type StreamRef } from './transformation.ts';

/**
 * A stream partitioned by key (Flink's KeyedStream). Operators applied to it run keyed:
 * `getRuntimeContext().getState(...)` reads and writes the current record's key's state.
 */
export class KeyedStream<T, K> extends DataStream<T> {
  readonly #keySelector: KeySelector<T, K>;

  constructor(builder: JobBuilder, refs: readonly StreamRef[], keySelector: KeySelector<T, K>) {
    super(builder, refs);
    this.#keySelector = keySelector;
  }

  getKeySelector(): KeySelector<T, K> {
    return this.#keySelector;
  }

  protected override operatorKey(): { key: KeySelector<unknown, unknown> } {
    return { key: this.#keySelector as KeySelector<unknown, unknown> };
  }

  override process<O>(fn: KeyedProcessFunction<K, T, O> | ProcessFunction<T, O>): SingleOutputStreamOperator<O> {
    return this.builder.addOperator(
      { kind: 'keyedProcess', fn: toKeyedProcessFunction(fn), ...this.operatorKey() },
      'KeyedProcess',
      inputsFrom(this.refs, 0),
    );
  }

  /** Emits, per record, the running reduction of its key's records so far. */
  reduce(fn: ReduceFunction<T> | ((accumulated: T, value: T) => T)): SingleOutputStreamOperator<T> {
    return this.builder.addOperator(
      { kind: 'reduce', fn: toReduceFunction(fn), ...this.operatorKey() },
      'Keyed Reduce',
      inputsFrom(this.refs, 0),
    );
  }
}
