import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { Window } from './windows.ts';

/** An element of a window with its event time, if it had one (Flink's TimestampedValue). */
export class TimestampedValue<T> {
  constructor(
    private value: T,
    private timestamp: number | undefined = undefined,
  ) {}

  /** The element. */
  getValue(): T {
    return this.value;
  }

  /** Replaces the element (what the window function then sees). */
  setValue(value: T): void {
    this.value = value;
  }

  /** Whether the element came with an event time. */
  hasTimestamp(): boolean {
    return this.timestamp !== undefined;
  }

  /** The element's event time; throws for an element that came without one (no WatermarkStrategy with a timestamp assigner). */
  getTimestamp(): number {
    if (this.timestamp === undefined) {
      throw new WeirError(
        ApiErrorCode.MISSING_TIMESTAMP,
        'this window element has no timestamp: give the stream a WatermarkStrategy with a timestamp assigner (assignTimestampsAndWatermarks), or check hasTimestamp() first',
      );
    }
    return this.timestamp;
  }

  /** Sets the element's event time. */
  setTimestamp(timestamp: number): void {
    this.timestamp = timestamp;
  }
}

/** What an evictor may know when a window fires (Flink's Evictor.EvictorContext). */
export interface EvictorContext {
  /** The operator's processing time (ms). */
  getCurrentProcessingTime(): number;
  /** The operator's current watermark (ms). */
  getCurrentWatermark(): number;
}

/**
 * Removes elements from a window when it fires (Flink's Evictor): `evictBefore` before the
 * window function runs, `evictAfter` after it. `elements` holds the window's elements in the
 * order they arrived; remove the ones to evict from it (`splice`) and they are gone from the
 * window for good. `size` is its length at the call. A window with an evictor keeps all its
 * elements even with `reduce` or `aggregate`, which then run over what is left at each firing.
 * An evictor is shared by all keys and windows of a subtask: keep no state in its fields.
 */
export interface Evictor<T, W extends Window> {
  /** Removes elements from `elements` (in place) before the window function sees them. */
  evictBefore(elements: TimestampedValue<T>[], size: number, window: W, ctx: EvictorContext): void;
  /** Removes elements from `elements` (in place) after the window function ran; what is left stays in the window. */
  evictAfter(elements: TimestampedValue<T>[], size: number, window: W, ctx: EvictorContext): void;
}

/** True for an object with evictBefore and evictAfter, what `WindowedStream.evictor()` takes. */
export function isEvictor(value: unknown): value is Evictor<unknown, Window> {
  if (value === null || typeof value !== 'object') return false;
  const evictor = value as Record<string, unknown>;
  return typeof evictor.evictBefore === 'function' && typeof evictor.evictAfter === 'function';
}
