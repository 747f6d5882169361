import type {
  ListState,
  ListStateDescriptor,
  MapState,
  MapStateDescriptor,
  ReducingState,
  ReducingStateDescriptor,
  StateDescriptor,
  ValueState,
  ValueStateDescriptor,
} from '../state/types.ts';
import type { Collector } from './collector.ts';
import type { OutputTag } from './output-tag.ts';
import type { TimeDomain, TimerService } from './timer-service.ts';
import { RichFunction } from './types.ts';

/**
 * Broadcast state as the non-broadcast side sees it (Flink's ReadOnlyBroadcastState): every
 * parallel instance holds the same map, written only by the broadcast side.
 */
export interface ReadOnlyBroadcastState<K, V> {
  /** The value for `key`, or undefined. */
  get(key: K): V | undefined;
  /** Whether the state has `key`. */
  contains(key: K): boolean;
  /** The entries, in insertion order; changing them is not possible. */
  immutableEntries(): Iterable<readonly [K, V]>;
}

/**
 * Broadcast state as the broadcast side sees it (Flink's BroadcastState). Every subtask gets the
 * same broadcast elements, so a function that updates the state from them alone (not from
 * its subtask index or the other input) keeps every copy the same, as Flink requires.
 */
export interface BroadcastState<K, V> extends ReadOnlyBroadcastState<K, V> {
  /** Sets the value for `key`. */
  put(key: K, value: V): void;
  /** Sets every given entry. */
  putAll(entries: Iterable<readonly [K, V]>): void;
  /** Removes `key`. */
  remove(key: K): void;
  /** The state's entries. */
  entries(): Iterable<[K, V]>;
  /** Removes every entry. */
  clear(): void;
}

/** What both sides' contexts have (Flink's BaseBroadcastProcessFunction.BaseContext). */
export interface BaseBroadcastContext {
  /** The event-time timestamp of the element being processed; undefined when it has none. */
  timestamp(): number | undefined;
  /** The operator's processing time (ms). */
  currentProcessingTime(): number;
  /** The operator's current watermark. */
  currentWatermark(): number;
  /** Emits `value` to side output `tag`. */
  output<X>(tag: OutputTag<X>, value: X): void;
}

/** processElement's context: broadcast state read-only (Flink's ReadOnlyContext). */
export interface ReadOnlyBroadcastContext extends BaseBroadcastContext {
  /** The broadcast state of `descriptor` (read-only on the element side). */
  getBroadcastState<K, V>(descriptor: MapStateDescriptor<K, V>): ReadOnlyBroadcastState<K, V>;
}

/** processBroadcastElement's context: broadcast state writable (Flink's Context). */
export interface BroadcastContext extends BaseBroadcastContext {
  /** The broadcast state of `descriptor` (read-only on the element side). */
  getBroadcastState<K, V>(descriptor: MapStateDescriptor<K, V>): BroadcastState<K, V>;
}

/** The keyed side's context: also the current key and timers (KeyedBroadcastProcessFunction.ReadOnlyContext). */
export interface KeyedReadOnlyBroadcastContext<K> extends ReadOnlyBroadcastContext {
  /** The key of the record or timer being processed. */
  getCurrentKey(): K;
  /** Timers of the current key (keyed side only). */
  timerService(): TimerService;
}

/** onTimer's context of a KeyedBroadcastProcessFunction. */
export interface KeyedBroadcastOnTimerContext<K> extends KeyedReadOnlyBroadcastContext<K> {
  /** Whether the firing timer is an event-time or a processing-time timer. */
  timeDomain(): TimeDomain;
}

/** Called per key that has state of a descriptor: `state` reads and writes that key's value. */
export type KeyedStateFunction<K, S> = (key: K, state: S) => void;

/** The state object a keyed state descriptor gives. */
export type StateOf<D> =
  D extends ValueStateDescriptor<infer T>
    ? ValueState<T>
    : D extends ListStateDescriptor<infer T>
      ? ListState<T>
      : D extends MapStateDescriptor<infer K, infer V>
        ? MapState<K, V>
        : D extends ReducingStateDescriptor<infer T>
          ? ReducingState<T>
          : never;

/** The broadcast side's context of a KeyedBroadcastProcessFunction: also keyed state of every key. */
export interface KeyedBroadcastContext<K> extends BroadcastContext {
  /**
   * Runs `fn` for every key of this subtask that has a value of the keyed state `descriptor`
   * (Flink's applyToKeyedState), with that key current: `state` is the state object the
   * descriptor gives, reading and writing that key's value. Differs from Flink on the LevelDB
   * backend: `fn` runs once processBroadcastElement returned (before the next record), as
   * its keys can only be read asynchronously.
   */
  applyToKeyedState<D extends StateDescriptor<unknown>>(descriptor: D, fn: KeyedStateFunction<K, StateOf<D>>): void;
}

/**
 * A non-keyed stream connected to a broadcast stream (Flink's BroadcastProcessFunction):
 * `processBroadcastElement` runs for every broadcast element in every subtask and may write
 * the broadcast state; `processElement` runs for the other input's records and only reads it.
 */
export abstract class BroadcastProcessFunction<IN1, IN2, OUT> extends RichFunction {
  /** Called for each record of the non-broadcast input, with read-only access to the broadcast state. */
  abstract processElement(value: IN1, ctx: ReadOnlyBroadcastContext, out: Collector<OUT>): void;
  /** Called for each record of the broadcast input, on every subtask, with write access to the broadcast state. */
  abstract processBroadcastElement(value: IN2, ctx: BroadcastContext, out: Collector<OUT>): void;
}

/**
 * A keyed stream connected to a broadcast stream (Flink's KeyedBroadcastProcessFunction): the
 * keyed side has keyed state and timers; the broadcast side writes broadcast state and reaches
 * keyed state only through `ctx.applyToKeyedState`.
 */
export abstract class KeyedBroadcastProcessFunction<K, IN1, IN2, OUT> extends RichFunction {
  /** Called for each record of the non-broadcast input, with read-only access to the broadcast state. */
  abstract processElement(value: IN1, ctx: KeyedReadOnlyBroadcastContext<K>, out: Collector<OUT>): void;
  /** Called for each record of the broadcast input, on every subtask, with write access to the broadcast state. */
  abstract processBroadcastElement(value: IN2, ctx: KeyedBroadcastContext<K>, out: Collector<OUT>): void;

  /** Called when a timer of the keyed side fires (Flink's KeyedBroadcastProcessFunction.onTimer). */
  onTimer(_timestamp: number, _ctx: KeyedBroadcastOnTimerContext<K>, _out: Collector<OUT>): void {}
}
