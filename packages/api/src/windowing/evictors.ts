import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { requireThreshold, toDeltaFunction, type DeltaFunction, type DeltaFunctionLike } from './delta-function.ts';
import type { Evictor, EvictorContext, TimestampedValue } from './evictor.ts';
import type { Window } from './windows.ts';

/**
 * An evictor that runs either before the window function (the default) or after it, as
 * Flink's CountEvictor, TimeEvictor and DeltaEvictor do with their `doEvictAfter` flag.
 */
abstract class BeforeOrAfterEvictor<T> implements Evictor<T, Window> {
  constructor(private readonly doEvictAfter: boolean) {}

  /** Evicts before the window function, unless this evictor was made to evict after it. */
  evictBefore(elements: TimestampedValue<T>[], size: number, _window?: Window, _ctx?: EvictorContext): void {
    if (!this.doEvictAfter) this.evict(elements, size);
  }

  /** Evicts after the window function, when this evictor was made to. */
  evictAfter(elements: TimestampedValue<T>[], size: number, _window?: Window, _ctx?: EvictorContext): void {
    if (this.doEvictAfter) this.evict(elements, size);
  }

  /** Removes the evicted elements from `elements` in place. */
  protected abstract evict(elements: TimestampedValue<T>[], size: number): void;

  protected get when(): string {
    return this.doEvictAfter ? ', after' : '';
  }
}

/** Keeps the last `maxCount` elements of a window, evicting the oldest arrivals (Flink's CountEvictor). */
export class CountEvictor extends BeforeOrAfterEvictor<unknown> {
  private constructor(
    private readonly maxCount: number,
    doEvictAfter: boolean,
  ) {
    super(doEvictAfter);
  }

  /** Keeps at most `maxCount` elements; `doEvictAfter` evicts after the window function instead of before. */
  static of(maxCount: number, doEvictAfter = false): CountEvictor {
    if (!Number.isSafeInteger(maxCount) || maxCount < 0) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `CountEvictor.of() takes a whole number of elements >= 0, got ${String(maxCount)}`);
    }
    return new CountEvictor(maxCount, requireFlag(doEvictAfter, 'CountEvictor.of()'));
  }

  /** Drops the oldest arrivals beyond `maxCount`. */
  protected evict(elements: TimestampedValue<unknown>[], size: number): void {
    if (size > this.maxCount) elements.splice(0, size - this.maxCount);
  }

  override toString(): string {
    return `CountEvictor(${this.maxCount}${this.when})`;
  }
}

/**
 * Keeps the elements of the last `windowSize` ms, measured back from the window's newest
 * element: an element at or before that element's timestamp minus `windowSize` is evicted
 * (Flink's TimeEvictor). A window whose elements have no timestamps is left as it is.
 */
export class TimeEvictor extends BeforeOrAfterEvictor<unknown> {
  private constructor(
    private readonly windowSize: number,
    doEvictAfter: boolean,
  ) {
    super(doEvictAfter);
  }

  /** `windowSize` in ms (`Time.seconds(10)`); `doEvictAfter` evicts after the window function instead of before. */
  static of(windowSize: number, doEvictAfter = false): TimeEvictor {
    if (!Number.isSafeInteger(windowSize) || windowSize < 0) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `TimeEvictor.of() takes a whole number of milliseconds >= 0, got ${String(windowSize)}`);
    }
    return new TimeEvictor(windowSize, requireFlag(doEvictAfter, 'TimeEvictor.of()'));
  }

  protected evict(elements: TimestampedValue<unknown>[]): void {
    // As in Flink, the first element speaks for all: a stream has timestamps or it has none.
    if (elements.length === 0 || !elements[0]!.hasTimestamp()) return;
    let newest = Number.NEGATIVE_INFINITY;
    for (const element of elements) newest = Math.max(newest, element.getTimestamp());
    const cutoff = newest - this.windowSize;
    removeWhere(elements, (element) => element.getTimestamp() <= cutoff);
  }

  override toString(): string {
    return `TimeEvictor(${this.windowSize}${this.when})`;
  }
}

/**
 * Evicts every element whose delta to the window's last element is at or above `threshold`
 * (Flink's DeltaEvictor): `deltaFunction.getDelta(element, lastElement) >= threshold`.
 */
export class DeltaEvictor<T> extends BeforeOrAfterEvictor<T> {
  private constructor(
    private readonly threshold: number,
    private readonly deltaFunction: DeltaFunction<T>,
    doEvictAfter: boolean,
  ) {
    super(doEvictAfter);
  }

  /** Evicts elements whose delta to the window's last element is `threshold` or more; takes a DeltaFunction or a lambda. */
  static of<T>(threshold: number, deltaFunction: DeltaFunctionLike<T>, doEvictAfter = false): DeltaEvictor<T> {
    const call = 'DeltaEvictor.of()';
    return new DeltaEvictor(requireThreshold(threshold, call), toDeltaFunction(deltaFunction, call), requireFlag(doEvictAfter, call));
  }

  protected evict(elements: TimestampedValue<T>[]): void {
    const last = elements.at(-1);
    if (last === undefined) return;
    const lastValue = last.getValue();
    removeWhere(elements, (element) => this.deltaFunction.getDelta(element.getValue(), lastValue) >= this.threshold);
  }

  override toString(): string {
    return `DeltaEvictor(${this.threshold}${this.when})`;
  }
}

/** Removes the elements `evict` picks, in place, keeping the order of the rest. */
function removeWhere<T>(elements: T[], evict: (element: T) => boolean): void {
  let kept = 0;
  for (const element of elements) if (!evict(element)) elements[kept++] = element;
  elements.length = kept;
}

function requireFlag(doEvictAfter: boolean, call: string): boolean {
  if (typeof doEvictAfter !== 'boolean') {
    throw new WeirError(ApiErrorCode.INVALID_WINDOW, `${call} takes doEvictAfter as a boolean, got ${String(doEvictAfter)}`);
  }
  return doEvictAfter;
}
