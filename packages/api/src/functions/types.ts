import type { Collector } from './collector.ts';
import type { OutputTag } from './output-tag.ts';
import type { RuntimeContext } from './runtime-context.ts';
import type { TimeDomain, TimerService } from './timer-service.ts';

export type { Collector };

/** Extracts the key of a record for keyBy; must be deterministic. Keys are strings, numbers, bigints, booleans or plain arrays/objects of those. */
export type KeySelector<T, K> = (record: T) => K;

/**
 * Base class for functions that need a lifecycle or state (Flink's AbstractRichFunction).
 * The runtime calls `setRuntimeContext` before `open` and `close` when the task ends.
 */
export abstract class RichFunction {
  #runtimeContext: RuntimeContext | undefined;

  /** Called by the runtime before open(); a function does not call it. */
  setRuntimeContext(context: RuntimeContext): void {
    this.#runtimeContext = context;
  }

  /** The subtask's context: keyed state, metrics, subtask index (Flink's getRuntimeContext). */
  getRuntimeContext(): RuntimeContext {
    if (this.#runtimeContext === undefined) {
      throw new Error('getRuntimeContext() is only available once the function runs in a task (from open() on)');
    }
    return this.#runtimeContext;
  }

  /** Called once per subtask before the first record, after state is restored; register state here (Flink's open, without a Configuration). */
  open(): void | Promise<void> {}

  /** Called once when the subtask ends, also after a failure (Flink's close). */
  close(): void | Promise<void> {}
}

/** `stream.map(fn)`'s function as an object (Flink's MapFunction); a plain function works too. */
export interface MapFunction<I, O> {
  /** One output record per input record. */
  map(value: I): O;
}

/** `stream.filter(fn)`'s function as an object (Flink's FilterFunction). */
export interface FilterFunction<T> {
  /** True keeps the record. */
  filter(value: T): boolean;
}

/** `stream.flatMap(fn)`'s function as an object (Flink's FlatMapFunction). */
export interface FlatMapFunction<I, O> {
  /** Emits any number of records for one input through `out`. */
  flatMap(value: I, out: Collector<O>): void;
}

/** Combines two values into one (Flink's ReduceFunction): `keyBy(...).reduce(fn)` and window reduce. */
export interface ReduceFunction<T> {
  /** Combines the accumulated value with the next one of the same key or window. */
  reduce(accumulated: T, value: T): T;
}

export abstract class RichMapFunction<I, O> extends RichFunction implements MapFunction<I, O> {
  /** One output record per input record. */
  abstract map(value: I): O;
}

export abstract class RichFilterFunction<T> extends RichFunction implements FilterFunction<T> {
  /** True keeps the record. */
  abstract filter(value: T): boolean;
}

export abstract class RichFlatMapFunction<I, O> extends RichFunction implements FlatMapFunction<I, O> {
  /** Emits any number of records for one input through `out`. */
  abstract flatMap(value: I, out: Collector<O>): void;
}

/** Context for ProcessFunction.processElement (Flink's ProcessFunction.Context). */
export interface ProcessContext {
  /** Index of this parallel subtask, from 0. */
  readonly subtaskIndex: number;
  /** The event-time timestamp of the record being processed (or of the timer firing); undefined when it has none. */
  timestamp(): number | undefined;
  /** Current processing time and watermark; timers need a keyed stream. */
  timerService(): TimerService;
  /** Emits `value` to the side output `tag`: `stream.getSideOutput(tag)` reads it. */
  output<X>(tag: OutputTag<X>, value: X): void;
}

export interface KeyedProcessContext<K> extends ProcessContext {
  /** The key of the record or timer being processed. */
  getCurrentKey(): K;
}

/** Context for `onTimer`: the timer's key is the current key, so keyed state reads that key's values. */
export interface OnTimerContext<K> extends KeyedProcessContext<K> {
  /** Whether the firing timer is an event-time or a processing-time timer. */
  timeDomain(): TimeDomain;
}

export abstract class ProcessFunction<I, O> extends RichFunction {
  /** Called for each record, with its timestamp and the timer service in `ctx`; emit through `out`. */
  abstract processElement(value: I, ctx: ProcessContext, out: Collector<O>): void;
}

/**
 * A function on a keyed stream with keyed state and timers (Flink's KeyedProcessFunction).
 * `onTimer` runs when a timer the function registered fires, with the timer's key current.
 */
export abstract class KeyedProcessFunction<K, I, O> extends RichFunction {
  /** Called for each record, with its timestamp and the timer service in `ctx`; emit through `out`. */
  abstract processElement(value: I, ctx: KeyedProcessContext<K>, out: Collector<O>): void;

  /** Called when a timer the function registered fires; `ctx.timeDomain()` says event or processing time (Flink's onTimer). */
  onTimer(_timestamp: number, _ctx: OnTimerContext<K>, _out: Collector<O>): void {}
}

/** Two inputs (`connect`); with keyed inputs the context's key is the current record's, and timers work. */
export abstract class CoProcessFunction<I1, I2, O> extends RichFunction {
  /** Called for each record of the first input (Flink's processElement1). */
  abstract processElement1(value: I1, ctx: KeyedProcessContext<unknown>, out: Collector<O>): void;
  /** Called for each record of the second input (Flink's processElement2). */
  abstract processElement2(value: I2, ctx: KeyedProcessContext<unknown>, out: Collector<O>): void;

  /** Called when a timer the function registered fires; `ctx.timeDomain()` says event or processing time (Flink's onTimer). */
  onTimer(_timestamp: number, _ctx: OnTimerContext<unknown>, _out: Collector<O>): void {}
}

/**
 * Two keyed inputs (`a.connect(b).keyBy(ka, kb).process(fn)`), keyed state and timers shared
 * by both sides of a key (Flink's KeyedCoProcessFunction).
 */
export abstract class KeyedCoProcessFunction<K, I1, I2, O> extends RichFunction {
  /** Called for each record of the first input (Flink's processElement1). */
  abstract processElement1(value: I1, ctx: KeyedProcessContext<K>, out: Collector<O>): void;
  /** Called for each record of the second input (Flink's processElement2). */
  abstract processElement2(value: I2, ctx: KeyedProcessContext<K>, out: Collector<O>): void;

  /** Called when a timer the function registered fires; `ctx.timeDomain()` says event or processing time (Flink's onTimer). */
  onTimer(_timestamp: number, _ctx: OnTimerContext<K>, _out: Collector<O>): void {}
}

/** True when `fn` extends RichFunction and so wants a runtime context, open and close. */
export function isRichFunction(fn: unknown): fn is RichFunction {
  return fn instanceof RichFunction;
}
