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
  createAccumulator(): ACC;
  add(value: IN, accumulator: ACC): ACC;
  getResult(accumulator: ACC): OUT;
  merge(a: ACC, b: ACC): ACC;
}

/** Keyed state by descriptor (Flink's KeyedStateStore). */
export interface KeyedStateStore {
  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
}

/** What a ProcessWindowFunction knows about the window it evaluates (Flink's ProcessWindowFunction.Context). */
export interface ProcessWindowContext<W extends Window> {
  window(): W;
  currentProcessingTime(): number;
  currentWatermark(): number;
  /** State of this key and window: kept across firings of the window (allowed lateness), removed in `clear`. */
  windowState(): KeyedStateStore;
  /** State of this key across all its windows. */
  globalState(): KeyedStateStore;
  output<X>(tag: OutputTag<X>, value: X): void;
}

/**
 * Evaluates a fired window with all its elements, or with the one pre-aggregated value of a
 * `reduce` / `aggregate` before it (Flink's ProcessWindowFunction). Results get the window's
 * max timestamp as their event time.
 */
export abstract class ProcessWindowFunction<IN, OUT, KEY, W extends Window> extends RichFunction {
  abstract process(key: KEY, context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;

  /** The window is purged: delete what `windowState()` holds for it. */
  clear(_context: ProcessWindowContext<W>): void {}
}

/** The older, simpler form of a window function (Flink's WindowFunction): `stream.window(...).apply(fn)`. */
export interface WindowFunction<IN, OUT, KEY, W extends Window> {
  apply(key: KEY, window: W, input: Iterable<IN>, out: Collector<OUT>): void;
}
