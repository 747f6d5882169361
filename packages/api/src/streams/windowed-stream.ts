import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { Collector } from '../functions/collector.ts';
import { requireOutputTag, type OutputTag } from '../functions/output-tag.ts';
import type { ReduceFunction } from '../functions/types.ts';
import type { WindowFunctionSpec } from '../graph/stream-graph.ts';
import { isEvictor, type Evictor } from '../windowing/evictor.ts';
import { isMergingAssigner, type WindowAssigner } from '../windowing/window-assigner.ts';
import { Trigger } from '../windowing/trigger.ts';
import { ProcessWindowFunction, type AggregateFunction, type ProcessWindowContext, type WindowFunction } from '../windowing/window-functions.ts';
import type { Window } from '../windowing/windows.ts';
import type { KeyedStream } from './keyed-stream.ts';
import { toReduceFunction } from './normalize.ts';
import type { SingleOutputStreamOperator } from './single-output-stream-operator.ts';

/**
 * A keyed stream grouped into windows (Flink's WindowedStream). Set the trigger, evictor,
 * allowed lateness and late-data side output, then say how a window is evaluated: `reduce`,
 * `aggregate` (incremental, one value per window in state, unless there is an evictor),
 * `process` (all elements in state), either of the first two followed by a
 * ProcessWindowFunction, or `apply`.
 */
export class WindowedStream<T, K, W extends Window> {
  #trigger: Trigger<T, W> | undefined;
  #evictor: Evictor<T, W> | undefined;
  #allowedLatenessMs = 0;
  #lateDataTag: string | undefined;

  constructor(
    private readonly input: KeyedStream<T, K>,
    private readonly assigner: WindowAssigner<T, W>,
  ) {}

  /** Replaces the assigner's default trigger. */
  trigger(trigger: Trigger<T, W>): this {
    if (!(trigger instanceof Trigger)) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `trigger() takes a Trigger, such as CountTrigger.of(100), got ${String(trigger)}`);
    }
    if (isMergingAssigner(this.assigner) && !trigger.canMerge()) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `${String(this.assigner)} merges windows, and ${String(trigger)} cannot merge (its canMerge() is false); use a trigger that can`);
    }
    this.#trigger = trigger;
    return this;
  }

  /**
   * Removes elements from a window before and/or after the window function runs when it fires
   * (`CountEvictor`, `TimeEvictor`, `DeltaEvictor` or an Evictor of your own). The window then
   * keeps all its elements, as in Flink, also with `reduce` and `aggregate`: these run over the
   * elements left at each firing rather than per element, and the state holds every element.
   */
  evictor(evictor: Evictor<T, W>): this {
    if (!isEvictor(evictor)) {
      throw new WeirError(ApiErrorCode.INVALID_FUNCTION, `evictor() takes an Evictor (with evictBefore and evictAfter), such as CountEvictor.of(10), got ${String(evictor)}`);
    }
    this.#evictor = evictor;
    return this;
  }

  /**
   * Event-time windows keep their state `ms` past their end: elements arriving in that time
   * are added and fire the window again (with EventTimeTrigger); later ones are dropped, or go
   * to `sideOutputLateData`. Ignored by processing-time windows, as in Flink.
   */
  allowedLateness(ms: number): this {
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `allowedLateness() takes a whole number of milliseconds >= 0, got ${String(ms)}`);
    }
    this.#allowedLatenessMs = ms;
    return this;
  }

  /** Elements too late for all their windows go to `tag` (read with getSideOutput(tag) on the result) instead of being dropped. */
  sideOutputLateData(tag: OutputTag<T>): this {
    this.#lateDataTag = requireOutputTag(tag, 'sideOutputLateData()').id;
    return this;
  }

  /** Keeps one reduced value per window; with `windowFunction`, that value is what it gets when the window fires. */
  reduce(fn: ReduceFunction<T> | ((a: T, b: T) => T)): SingleOutputStreamOperator<T>;
  reduce<R>(fn: ReduceFunction<T> | ((a: T, b: T) => T), windowFunction: ProcessWindowFunction<T, R, K, W> | WindowFunction<T, R, K, W>): SingleOutputStreamOperator<R>;
  reduce<R>(
    fn: ReduceFunction<T> | ((a: T, b: T) => T),
    windowFunction?: ProcessWindowFunction<T, R, K, W> | WindowFunction<T, R, K, W>,
  ): SingleOutputStreamOperator<R> {
    const reduce = toReduceFunction(fn);
    requireNotRich(reduce, 'reduce()');
    const process = windowFunction === undefined ? undefined : toProcessWindowFunction(windowFunction, 'reduce()');
    return this.#build({ kind: 'reduce', reduce, process }, 'Window(Reduce)');
  }

  /** Keeps one accumulator per window (AggregateFunction); with `windowFunction`, the result is what it gets when the window fires. */
  aggregate<ACC, V>(fn: AggregateFunction<T, ACC, V>): SingleOutputStreamOperator<V>;
  aggregate<ACC, V, R>(fn: AggregateFunction<T, ACC, V>, windowFunction: ProcessWindowFunction<V, R, K, W> | WindowFunction<V, R, K, W>): SingleOutputStreamOperator<R>;
  aggregate<ACC, V, R>(
    fn: AggregateFunction<T, ACC, V>,
    windowFunction?: ProcessWindowFunction<V, R, K, W> | WindowFunction<V, R, K, W>,
  ): SingleOutputStreamOperator<R> {
    const methods = ['createAccumulator', 'add', 'getResult', 'merge'] as const;
    if (fn === null || typeof fn !== 'object' || methods.some((m) => typeof (fn as unknown as Record<string, unknown>)[m] !== 'function')) {
      throw new WeirError(
        ApiErrorCode.INVALID_FUNCTION,
        `aggregate() takes an AggregateFunction: an object with createAccumulator(), add(value, acc), getResult(acc) and merge(a, b), got ${String(fn)}`,
      );
    }
    requireNotRich(fn, 'aggregate()');
    const process = windowFunction === undefined ? undefined : toProcessWindowFunction(windowFunction, 'aggregate()');
    return this.#build({ kind: 'aggregate', aggregate: fn as AggregateFunction<unknown, unknown, unknown>, process }, 'Window(Aggregate)');
  }

  /** Keeps every element of a window and hands them all to `fn` when it fires. */
  process<R>(fn: ProcessWindowFunction<T, R, K, W>): SingleOutputStreamOperator<R> {
    return this.#build({ kind: 'process', process: toProcessWindowFunction(fn, 'process()') }, 'Window(Process)');
  }

  /** Flink's older form of `process`. */
  apply<R>(fn: WindowFunction<T, R, K, W> | ((key: K, window: W, input: Iterable<T>, out: Collector<R>) => void)): SingleOutputStreamOperator<R> {
    const windowFunction = typeof fn === 'function' ? { apply: fn } : fn;
    return this.#build({ kind: 'process', process: toProcessWindowFunction(windowFunction, 'apply()') }, 'Window(Apply)');
  }

  #build<R>(fn: WindowFunctionSpec, name: string): SingleOutputStreamOperator<R> {
    const trigger = (this.#trigger ?? this.assigner.getDefaultTrigger()) as Trigger<unknown, Window>;
    return this.input.addKeyedOperator<R>(
      {
        kind: 'window',
        key: this.input.getKeySelector() as (record: unknown) => unknown,
        window: {
          assigner: this.assigner as unknown as WindowAssigner<unknown, Window>,
          trigger,
          evictor: this.#evictor as Evictor<unknown, Window> | undefined,
          allowedLatenessMs: this.assigner.isEventTime() ? this.#allowedLatenessMs : 0,
          lateDataTag: this.#lateDataTag,
          function: fn,
        },
      },
      name,
    );
  }
}

/** A WindowFunction runs as a ProcessWindowFunction; a ProcessWindowFunction passes as it is (it may be a RichFunction). */
class WindowFunctionAdapter extends ProcessWindowFunction<unknown, unknown, unknown, Window> {
  constructor(private readonly fn: WindowFunction<unknown, unknown, unknown, Window>) {
    super();
  }

  process(key: unknown, context: ProcessWindowContext<Window>, elements: Iterable<unknown>, out: Collector<unknown>): void {
    this.fn.apply(key, context.window(), elements, out);
  }
}

function toProcessWindowFunction(fn: unknown, call: string): ProcessWindowFunction<unknown, unknown, unknown, Window> {
  if (fn instanceof ProcessWindowFunction) return fn as ProcessWindowFunction<unknown, unknown, unknown, Window>;
  if (fn !== null && typeof fn === 'object' && typeof (fn as { process?: unknown }).process === 'function') {
    return fn as ProcessWindowFunction<unknown, unknown, unknown, Window>;
  }
  if (fn !== null && typeof fn === 'object' && typeof (fn as { apply?: unknown }).apply === 'function') {
    return new WindowFunctionAdapter(fn as WindowFunction<unknown, unknown, unknown, Window>);
  }
  throw new WeirError(
    ApiErrorCode.INVALID_FUNCTION,
    `${call} takes a ProcessWindowFunction (with process(key, context, elements, out)) or a WindowFunction (with apply(key, window, input, out)), got ${String(fn)}`,
  );
}

/** As in Flink: the incremental function of a window runs per element without a lifecycle; lifecycle belongs in the window function. */
function requireNotRich(fn: object, call: string): void {
  const rich = fn as { open?: unknown; setRuntimeContext?: unknown };
  if (typeof rich.setRuntimeContext === 'function') {
    throw new WeirError(
      ApiErrorCode.INVALID_FUNCTION,
      `the function of a window's ${call} cannot be a RichFunction; put state and lifecycle into a ProcessWindowFunction passed as its second argument`,
    );
  }
}
