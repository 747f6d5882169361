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

  setRuntimeContext(context: RuntimeContext): void {
    this.#runtimeContext = context;
  }

  getRuntimeContext(): RuntimeContext {
    if (this.#runtimeContext === undefined) {
      throw new Error('getRuntimeContext() is only available once the function runs in a task (from open() on)');
    }
    return this.#runtimeContext;
  }

  open(): void | Promise<void> {}

  close(): void | Promise<void> {}
}

export interface MapFunction<I, O> {
  map(value: I): O;
}

export interface FilterFunction<T> {
  filter(value: T): boolean;
}

export interface FlatMapFunction<I, O> {
  flatMap(value: I, out: Collector<O>): void;
}

export interface ReduceFunction<T> {
  reduce(accumulated: T, value: T): T;
}

export abstract class RichMapFunction<I, O> extends RichFunction implements MapFunction<I, O> {
  abstract map(value: I): O;
}

export abstract class RichFilterFunction<T> extends RichFunction implements FilterFunction<T> {
  abstract filter(value: T): boolean;
}

export abstract class RichFlatMapFunction<I, O> extends RichFunction implements FlatMapFunction<I, O> {
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
  getCurrentKey(): K;
}

/** Context for `onTimer`: the timer's key is the current key, so keyed state reads that key's values. */
export interface OnTimerContext<K> extends KeyedProcessContext<K> {
  timeDomain(): TimeDomain;
}

export abstract class ProcessFunction<I, O> extends RichFunction {
  abstract processElement(value: I, ctx: ProcessContext, out: Collector<O>): void;
}

/**
 * A function on a keyed stream with keyed state and timers (Flink's KeyedProcessFunction).
 * `onTimer` runs when a timer the function registered fires, with the timer's key current.
 */
export abstract class KeyedProcessFunction<K, I, O> extends RichFunction {
  abstract processElement(value: I, ctx: KeyedProcessContext<K>, out: Collector<O>): void;

  onTimer(_timestamp: number, _ctx: OnTimerContext<K>, _out: Collector<O>): void {}
}

/** Two inputs (`connect`); with keyed inputs the context's key is the current record's, and timers work. */
export abstract class CoProcessFunction<I1, I2, O> extends RichFunction {
  abstract processElement1(value: I1, ctx: KeyedProcessContext<unknown>, out: Collector<O>): void;
  abstract processElement2(value: I2, ctx: KeyedProcessContext<unknown>, out: Collector<O>): void;

  onTimer(_timestamp: number, _ctx: OnTimerContext<unknown>, _out: Collector<O>): void {}
}

/**
 * Two keyed inputs (`a.connect(b).keyBy(ka, kb).process(fn)`), keyed state and timers shared
 * by both sides of a key (Flink's KeyedCoProcessFunction).
 */
export abstract class KeyedCoProcessFunction<K, I1, I2, O> extends RichFunction {
  abstract processElement1(value: I1, ctx: KeyedProcessContext<K>, out: Collector<O>): void;
  abstract processElement2(value: I2, ctx: KeyedProcessContext<K>, out: Collector<O>): void;

  onTimer(_timestamp: number, _ctx: OnTimerContext<K>, _out: Collector<O>): void {}
}

/** True when `fn` extends RichFunction and so wants a runtime context, open and close. */
export function isRichFunction(fn: unknown): fn is RichFunction {
  return fn instanceof RichFunction;
}
