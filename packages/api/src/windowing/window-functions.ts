import type { Collector } from '../functions/collector.ts';
import type { OutputTag } from '../functions/output-tag.ts';
import { RichFunction } from '../functions/types.ts';
import type {
  ListState,
  ListStateDescriptor,
  MapState,
  MapStateDescriptor,
  ReducingState,
  ReducingStateDescriptor,
  ValueState,
  ValueStateDescriptor,
} from '../state/types.ts';
import type { Window } from './windows.ts';

/**
 * Incremental aggregation with an accumulator (Flink's AggregateFunction): a window keeps only
 * the accumulator in state, `add`ed to per element; `merge` joins the accumulators of merging
 * session windows. The accumulator is state: keep it MessagePack-serializable.
 */
export interface AggregateFunction<IN, ACC, OUT> {
  /** A new, empty accumulator for a window. */
  createAccumulator(): ACC;
  /** Adds one element to the accumulator and returns it. */
  add(value: IN, accumulator: ACC): ACC;
  /** The window's result from its accumulator. */
  getResult(accumulator: ACC): OUT;
  /** Merges two accumulators (merging windows). */
  merge(a: ACC, b: ACC): ACC;
}

/** Keyed state by descriptor (Flink's KeyedStateStore). */
export interface KeyedStateStore {
  /** A value state of this scope. */
  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  /** A list state of this scope. */
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  /** A map state of this scope. */
  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  /** A reducing state of this scope. */
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
}

/** What a ProcessWindowFunction knows about the window it evaluates (Flink's ProcessWindowFunction.Context). */
export interface ProcessWindowContext<W extends Window> {
  /** The window being evaluated. */
  window(): W;
  /** The operator's processing time (ms). */
  currentProcessingTime(): number;
  /** The operator's current watermark. */
  currentWatermark(): number;
  /** State of this key and window: kept across firings of the window (allowed lateness), removed in `clear`. */
  windowState(): KeyedStateStore;
  /** State of this key across all its windows. */
  globalState(): KeyedStateStore;
  /** Emits `value` to side output `tag`. */
  output<X>(tag: OutputTag<X>, value: X): void;
}

/**
 * Evaluates a fired window with all its elements, or with the one pre-aggregated value of a
 * `reduce` / `aggregate` before it (Flink's ProcessWindowFunction). Results get the window's
 * max timestamp as their event time.
 */
export abstract class ProcessWindowFunction<IN, OUT, KEY, W extends Window> extends RichFunction {
  /** Called when the window fires, with all its elements (or the incremental aggregate's result). */
  abstract process(key: KEY, context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;

  /** The window is purged: delete what `windowState()` holds for it. */
  clear(_context: ProcessWindowContext<W>): void {}
}

/** The older, simpler form of a window function (Flink's WindowFunction): `stream.window(...).apply(fn)`. */
export interface WindowFunction<IN, OUT, KEY, W extends Window> {
  /** Called when the window fires, with its elements (Flink's WindowFunction.apply). */
  apply(key: KEY, window: W, input: Iterable<IN>, out: Collector<OUT>): void;
}

/** What a ProcessAllWindowFunction knows about its window (Flink's ProcessAllWindowFunction.Context). */
export interface ProcessAllWindowContext<W extends Window> {
  /** The window being evaluated. */
  window(): W;
  /** State of this key and this window, cleared with the window. */
  windowState(): KeyedStateStore;
  /** State of this key across all its windows. */
  globalState(): KeyedStateStore;
  /** Emits `value` to side output `tag`. */
  output<X>(tag: OutputTag<X>, value: X): void;
}

/** Evaluates a window of a whole stream (`windowAll`), Flink's ProcessAllWindowFunction. */
export abstract class ProcessAllWindowFunction<IN, OUT, W extends Window> extends RichFunction {
  /** Called when the window fires, with all its elements (or the incremental aggregate's result). */
  abstract process(context: ProcessAllWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;

  /** The window is purged: delete what `windowState()` holds for it. */
  clear(_context: ProcessAllWindowContext<W>): void {}
}

/** Flink's AllWindowFunction: `windowAll(...).apply(fn)`. */
export interface AllWindowFunction<IN, OUT, W extends Window> {
  /** Called when the window fires, with its elements (Flink's WindowFunction.apply). */
  apply(window: W, values: Iterable<IN>, out: Collector<OUT>): void;
}
