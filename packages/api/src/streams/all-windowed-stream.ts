import type { Collector } from '../functions/collector.ts';
import type { OutputTag } from '../functions/output-tag.ts';
import type { ReduceFunction } from '../functions/types.ts';
import type { Evictor } from '../windowing/evictor.ts';
import type { Trigger } from '../windowing/trigger.ts';
import {
  ProcessAllWindowFunction,
  ProcessWindowFunction,
  type AggregateFunction,
  type AllWindowFunction,
  type ProcessWindowContext,
} from '../windowing/window-functions.ts';
import type { Window } from '../windowing/windows.ts';
import type { SingleOutputStreamOperator } from './single-output-stream-operator.ts';
import type { WindowedStream } from './windowed-stream.ts';

/**
 * Windows over a whole stream, not per key (Flink's AllWindowedStream, from `windowAll`): one
 * window operator at parallelism 1, every record under one key, so everything a keyed window
 * has (triggers, lateness, late data, state, timers in checkpoints) holds here too.
 */
export class AllWindowedStream<T, W extends Window> {
  constructor(private readonly windowed: WindowedStream<T, number, W>) {}

  /** Replaces the assigner's default trigger (Flink's AllWindowedStream.trigger). */
  trigger(trigger: Trigger<T, W>): this {
    this.windowed.trigger(trigger);
    return this;
  }

  /** Removes elements from a window before or after its function runs (Flink's evictor). */
  evictor(evictor: Evictor<T, W>): this {
    this.windowed.evictor(evictor);
    return this;
  }

  /** Keeps windows this long (ms) after the watermark passed their end, firing again for late elements (Flink's allowedLateness). */
  allowedLateness(ms: number): this {
    this.windowed.allowedLateness(ms);
    return this;
  }

  /** Sends elements too late for any window to side output `tag` (Flink's sideOutputLateData). */
  sideOutputLateData(tag: OutputTag<T>): this {
    this.windowed.sideOutputLateData(tag);
    return this;
  }

  /** Reduces each window's elements incrementally, optionally passing the result to a window function (Flink's reduce). */
  reduce(fn: ReduceFunction<T> | ((a: T, b: T) => T)): SingleOutputStreamOperator<T>;
  /** Reduces each window's elements incrementally, optionally passing the result to a window function (Flink's reduce). */
  reduce<R>(fn: ReduceFunction<T> | ((a: T, b: T) => T), windowFunction: ProcessAllWindowFunction<T, R, W> | AllWindowFunction<T, R, W>): SingleOutputStreamOperator<R>;
  /** Reduces each window's elements incrementally, optionally passing the result to a window function (Flink's reduce). */
  reduce<R>(fn: ReduceFunction<T> | ((a: T, b: T) => T), windowFunction?: ProcessAllWindowFunction<T, R, W> | AllWindowFunction<T, R, W>): SingleOutputStreamOperator<R> {
    const result = windowFunction === undefined ? this.windowed.reduce(fn) : this.windowed.reduce(fn, keyless<T, R, W>(windowFunction));
    return result.setParallelism(1) as SingleOutputStreamOperator<R>;
  }

  /** Aggregates each window incrementally with an AggregateFunction, optionally then a window function (Flink's aggregate). */
  aggregate<ACC, V>(fn: AggregateFunction<T, ACC, V>): SingleOutputStreamOperator<V>;
  /** Aggregates each window incrementally with an AggregateFunction, optionally then a window function (Flink's aggregate). */
  aggregate<ACC, V, R>(fn: AggregateFunction<T, ACC, V>, windowFunction: ProcessAllWindowFunction<V, R, W> | AllWindowFunction<V, R, W>): SingleOutputStreamOperator<R>;
  /** Aggregates each window incrementally with an AggregateFunction, optionally then a window function (Flink's aggregate). */
  aggregate<ACC, V, R>(fn: AggregateFunction<T, ACC, V>, windowFunction?: ProcessAllWindowFunction<V, R, W> | AllWindowFunction<V, R, W>): SingleOutputStreamOperator<R> {
    const result = windowFunction === undefined ? this.windowed.aggregate(fn) : this.windowed.aggregate(fn, keyless<V, R, W>(windowFunction));
    return result.setParallelism(1) as SingleOutputStreamOperator<R>;
  }

  /** Runs a ProcessAllWindowFunction over each window's elements when it fires (Flink's process). */
  process<R>(fn: ProcessAllWindowFunction<T, R, W>): SingleOutputStreamOperator<R> {
    return this.windowed.process(keyless<T, R, W>(fn)).setParallelism(1);
  }

  /** Runs an AllWindowFunction over each window's elements when it fires (Flink's apply). */
  apply<R>(fn: AllWindowFunction<T, R, W> | ((window: W, values: Iterable<T>, out: Collector<R>) => void)): SingleOutputStreamOperator<R> {
    const windowFunction: AllWindowFunction<T, R, W> = typeof fn === 'function' ? { apply: fn as (window: W, values: Iterable<T>, out: Collector<R>) => void } : fn;
    return this.windowed.process(keyless<T, R, W>(windowFunction)).setParallelism(1);
  }
}

/** An all-window function as the keyed window operator calls it: the key (always 0) is dropped; lifecycle calls go through. */
class KeylessWindowFunction<IN, OUT, W extends Window> extends ProcessWindowFunction<IN, OUT, number, W> {
  constructor(private readonly fn: ProcessAllWindowFunction<IN, OUT, W> | AllWindowFunction<IN, OUT, W>) {
    super();
  }

  override setRuntimeContext(context: Parameters<ProcessWindowFunction<IN, OUT, number, W>['setRuntimeContext']>[0]): void {
    super.setRuntimeContext(context);
    if (this.fn instanceof ProcessAllWindowFunction) this.fn.setRuntimeContext(context);
  }

  override open(): void | Promise<void> {
    if (this.fn instanceof ProcessAllWindowFunction) return this.fn.open();
  }

  override close(): void | Promise<void> {
    if (this.fn instanceof ProcessAllWindowFunction) return this.fn.close();
  }

  /** Runs a ProcessAllWindowFunction over each window's elements when it fires (Flink's process). */
  process(_key: number, context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void {
    if (this.fn instanceof ProcessAllWindowFunction) this.fn.process(context, elements, out);
    else this.fn.apply(context.window(), elements, out);
  }

  override clear(context: ProcessWindowContext<W>): void {
    if (this.fn instanceof ProcessAllWindowFunction) this.fn.clear(context);
  }
}

function keyless<IN, OUT, W extends Window>(fn: ProcessAllWindowFunction<IN, OUT, W> | AllWindowFunction<IN, OUT, W>): ProcessWindowFunction<IN, OUT, number, W> {
  return new KeylessWindowFunction(fn);
}
