import type { KeyedProcessFunction, KeySelector, ProcessFunction, ReduceFunction } from '../functions/types.ts';
import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { OperatorSpec } from '../graph/stream-graph.ts';
import { GlobalWindows } from '../windowing/assigners.ts';
import { CountTrigger, PurgingTrigger } from '../windowing/triggers.ts';
import { CountEvictor } from '../windowing/evictors.ts';
import { WindowAssigner } from '../windowing/window-assigner.ts';
import type { GlobalWindow, Window } from '../windowing/windows.ts';
import { DataStream } from './data-stream.ts';
import type { WindowedStream } from './windowed-stream.ts';
import type { JobBuilder } from './job-builder.ts';
import { toKeyedProcessFunction, toReduceFunction } from './normalize.ts';
import { AggregationFunction, type AggregationType, type FieldExpression } from '../functions/aggregation.ts';
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

  /** The function that extracts each record's key. */
  getKeySelector(): KeySelector<T, K> {
    return this.#keySelector;
  }

  protected override operatorKey(): { key: KeySelector<unknown, unknown> } {
    return { key: this.#keySelector as KeySelector<unknown, unknown> };
  }

  /** Applies a KeyedProcessFunction: keyed state and timers per key (Flink's KeyedStream.process). */
  override process<O>(fn: KeyedProcessFunction<K, T, O> | ProcessFunction<T, O>): SingleOutputStreamOperator<O> {
    return this.builder.addOperator(
      { kind: 'keyedProcess', fn: toKeyedProcessFunction(fn), ...this.operatorKey() },
      'KeyedProcess',
      inputsFrom(this.refs, 0),
    );
  }

  /**
   * Groups each key's records into windows (Flink's KeyedStream.window): tumbling, sliding or
   * session windows in event or processing time, or GlobalWindows with a trigger of your own.
   */
  window<W extends Window>(assigner: WindowAssigner<T, W>): WindowedStream<T, K, W> {
    if (!(assigner instanceof WindowAssigner)) {
      throw new WeirError(
        ApiErrorCode.INVALID_WINDOW,
        `window() takes a WindowAssigner, such as TumblingEventTimeWindows.of(Time.minutes(1)), got ${String(assigner)}`,
      );
    }
    return this.builder.windowed(this, assigner);
  }

  /**
   * Windows of `size` elements per key: fires and purges every `size` elements (Flink's
   * countWindow(size)). With `slide`, sliding count windows: every `slide` elements the window
   * fires with the last `size` elements (a CountEvictor keeps them, as Flink's countWindow(size, slide)).
   */
  countWindow(size: number, slide?: number): WindowedStream<T, K, GlobalWindow> {
    const global = this.window(GlobalWindows.create() as WindowAssigner<T, GlobalWindow>);
    if (slide === undefined) return global.trigger(PurgingTrigger.of(CountTrigger.of(size)));
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `countWindow() takes a whole number of elements >= 1 as its size, got ${String(size)}`);
    }
    return global.evictor(CountEvictor.of(size)).trigger(CountTrigger.of(slide));
  }

  /** @internal The spec of an operator on this keyed stream. */
  addKeyedOperator<O>(spec: OperatorSpec, name: string): SingleOutputStreamOperator<O> {
    return this.builder.addOperator(spec, name, inputsFrom(this.refs, 0));
  }

  /** Emits, per record, the running reduction of its key's records so far. */
  reduce(fn: ReduceFunction<T> | ((accumulated: T, value: T) => T)): SingleOutputStreamOperator<T> {
    return this.builder.addOperator(
      { kind: 'reduce', fn: toReduceFunction(fn), ...this.operatorKey() },
      'Keyed Reduce',
      inputsFrom(this.refs, 0),
    );
  }

  /**
   * The running sum of `field` per key (a position of array records, or an object's field name):
   * each record emits its key's first record with `field` set to the sum so far (Flink's sum).
   */
  sum(field: FieldExpression): SingleOutputStreamOperator<T> {
    return this.#aggregate('sum', field, true);
  }

  /** The running minimum of `field` per key; the other fields are those of the key's first record (Flink's min). */
  min(field: FieldExpression): SingleOutputStreamOperator<T> {
    return this.#aggregate('min', field, true);
  }

  /** The running maximum of `field` per key; the other fields are those of the key's first record (Flink's max). */
  max(field: FieldExpression): SingleOutputStreamOperator<T> {
    return this.#aggregate('max', field, true);
  }

  /** The key's record with the smallest `field` so far, whole; on a tie the earlier one, or the later with `first` = false (Flink's minBy). */
  minBy(field: FieldExpression, first = true): SingleOutputStreamOperator<T> {
    return this.#aggregate('minBy', field, first);
  }

  /** The key's record with the largest `field` so far, whole; on a tie the earlier one, or the later with `first` = false (Flink's maxBy). */
  maxBy(field: FieldExpression, first = true): SingleOutputStreamOperator<T> {
    return this.#aggregate('maxBy', field, first);
  }

  /** As Flink's KeyedStream.aggregate: a keyed reduce named "Keyed Aggregation", its accumulator in keyed state. */
  #aggregate(type: AggregationType, field: FieldExpression, first: boolean): SingleOutputStreamOperator<T> {
    return this.builder.addOperator(
      { kind: 'reduce', fn: new AggregationFunction(type, field, first), ...this.operatorKey() },
      'Keyed Aggregation',
      inputsFrom(this.refs, 0),
    );
  }
}
