import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { Trigger } from './trigger.ts';
import { EventTimeTrigger, NeverTrigger, ProcessingTimeTrigger } from './triggers.ts';
import { MergingWindowAssigner, WindowAssigner, type MergeCallback, type WindowAssignerContext } from './window-assigner.ts';
import { GlobalWindow, TimeWindow, type Window } from './windows.ts';

function requirePositive(ms: number, what: string): number {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms <= 0) {
    throw new WeirError(ApiErrorCode.INVALID_WINDOW, `${what} must be a whole number of milliseconds > 0, got ${String(ms)}`);
  }
  return ms;
}

function requireOffset(offset: number, bound: number, what: string): number {
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || Math.abs(offset) >= bound) {
    throw new WeirError(ApiErrorCode.INVALID_WINDOW, `${what} offset must be a whole number of milliseconds with |offset| < ${bound}, got ${String(offset)}`);
  }
  return offset;
}

/** The element's event time, or a clear error when it has none. */
export function requireTimestamp(timestamp: number | undefined, assigner: string): number {
  if (timestamp === undefined || !Number.isFinite(timestamp)) {
    throw new WeirError(
      ApiErrorCode.MISSING_TIMESTAMP,
      `${assigner} got a record without an event-time timestamp (${String(timestamp)}); give the source a WatermarkStrategy with ` +
        'withTimestampAssigner(...) (env.fromSource(source, strategy, name)) or call assignTimestampsAndWatermarks(strategy) before the window, ' +
        'or use the processing-time windows',
    );
  }
  return timestamp;
}

function tumblingWindow(timestamp: number, size: number, offset: number): TimeWindow[] {
  const start = TimeWindow.getWindowStartWithOffset(timestamp, offset, size);
  return [new TimeWindow(start, start + size)];
}

function slidingWindows(timestamp: number, size: number, slide: number, offset: number): TimeWindow[] {
  const windows: TimeWindow[] = [];
  const lastStart = TimeWindow.getWindowStartWithOffset(timestamp, offset, slide);
  for (let start = lastStart; start > timestamp - size; start -= slide) windows.push(new TimeWindow(start, start + size));
  return windows;
}

/** Fixed-size, non-overlapping event-time windows, aligned to the epoch plus `offset` (e.g. -8 h for days in UTC+8). */
export class TumblingEventTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    readonly size: number,
    readonly offset: number,
  ) {
    super();
  }

  /** Windows of `size` ms aligned to the epoch plus `offset` ms (Flink takes a Time; here both are milliseconds). */
  static of(size: number, offset = 0): TumblingEventTimeWindows {
    requirePositive(size, 'TumblingEventTimeWindows size');
    return new TumblingEventTimeWindows(size, requireOffset(offset, size, 'TumblingEventTimeWindows'));
  }

  assignWindows(_element: unknown, timestamp: number | undefined): TimeWindow[] {
    return tumblingWindow(requireTimestamp(timestamp, 'TumblingEventTimeWindows'), this.size, this.offset);
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return EventTimeTrigger.create();
  }

  isEventTime(): boolean {
    return true;
  }

  override toString(): string {
    return `TumblingEventTimeWindows(${this.size})`;
  }
}

/** Fixed-size, non-overlapping windows of processing time. */
export class TumblingProcessingTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    readonly size: number,
    readonly offset: number,
  ) {
    super();
  }

  /** Windows of `size` ms of processing time, aligned to the epoch plus `offset` ms. */
  static of(size: number, offset = 0): TumblingProcessingTimeWindows {
    requirePositive(size, 'TumblingProcessingTimeWindows size');
    return new TumblingProcessingTimeWindows(size, requireOffset(offset, size, 'TumblingProcessingTimeWindows'));
  }

  assignWindows(_element: unknown, _timestamp: number | undefined, context: WindowAssignerContext): TimeWindow[] {
    return tumblingWindow(context.getCurrentProcessingTime(), this.size, this.offset);
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return `TumblingProcessingTimeWindows(${this.size})`;
  }
}

/** Windows of `size` starting every `slide`: an element is in size/slide windows. */
export class SlidingEventTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    readonly size: number,
    readonly slide: number,
    readonly offset: number,
  ) {
    super();
  }

  /** Windows of `size` ms starting every `slide` ms, aligned to the epoch plus `offset` ms: each element is in size/slide windows. */
  static of(size: number, slide: number, offset = 0): SlidingEventTimeWindows {
    requirePositive(size, 'SlidingEventTimeWindows size');
    requirePositive(slide, 'SlidingEventTimeWindows slide');
    return new SlidingEventTimeWindows(size, slide, requireOffset(offset, slide, 'SlidingEventTimeWindows'));
  }

  assignWindows(_element: unknown, timestamp: number | undefined): TimeWindow[] {
    return slidingWindows(requireTimestamp(timestamp, 'SlidingEventTimeWindows'), this.size, this.slide, this.offset);
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return EventTimeTrigger.create();
  }

  isEventTime(): boolean {
    return true;
  }

  override toString(): string {
    return `SlidingEventTimeWindows(${this.size}, ${this.slide})`;
  }
}

/** Sliding windows of processing time. */
export class SlidingProcessingTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    readonly size: number,
    readonly slide: number,
    readonly offset: number,
  ) {
    super();
  }

  /** Sliding windows of `size` ms every `slide` ms, in processing time. */
  static of(size: number, slide: number, offset = 0): SlidingProcessingTimeWindows {
    requirePositive(size, 'SlidingProcessingTimeWindows size');
    requirePositive(slide, 'SlidingProcessingTimeWindows slide');
    return new SlidingProcessingTimeWindows(size, slide, requireOffset(offset, slide, 'SlidingProcessingTimeWindows'));
  }

  assignWindows(_element: unknown, _timestamp: number | undefined, context: WindowAssignerContext): TimeWindow[] {
    return slidingWindows(context.getCurrentProcessingTime(), this.size, this.slide, this.offset);
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return `SlidingProcessingTimeWindows(${this.size}, ${this.slide})`;
  }
}

/** Extracts a session gap (ms) from an element, for sessions whose gap depends on the element. */
export type SessionWindowTimeGapExtractor<T> = (element: T) => number;

abstract class SessionWindows<T> extends MergingWindowAssigner<T, TimeWindow> {
  protected constructor(private readonly gap: SessionWindowTimeGapExtractor<T>) {
    super();
  }

  /** The element's own session, `[start, start + gap)`, before merging with the key's others. */
  protected sessionOf(element: T, start: number): TimeWindow[] {
    const gap = this.gap(element);
    if (typeof gap !== 'number' || !Number.isFinite(gap) || gap <= 0) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `${this.constructor.name}: a session gap must be a number of milliseconds > 0, got ${String(gap)}`);
    }
    return [new TimeWindow(start, start + gap)];
  }

  mergeWindows(windows: readonly TimeWindow[], callback: MergeCallback<TimeWindow>): void {
    TimeWindow.mergeWindows(windows, (toBeMerged, mergeResult) => callback.merge(toBeMerged, mergeResult));
  }
}

/** A key's session: elements closer than `gap` to each other, in event time; sessions merge as elements fill gaps. */
export class EventTimeSessionWindows<T = unknown> extends SessionWindows<T> {
  /** Sessions that close after `gap` ms of event time without an element. */
  static withGap(gap: number): EventTimeSessionWindows {
    requirePositive(gap, 'EventTimeSessionWindows gap');
    return new EventTimeSessionWindows(() => gap);
  }

  /** Sessions whose gap each element gives through `extractor` (ms). */
  static withDynamicGap<T>(extractor: SessionWindowTimeGapExtractor<T>): EventTimeSessionWindows<T> {
    if (typeof extractor !== 'function') {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `EventTimeSessionWindows.withDynamicGap() takes a function (element) => gap, got ${String(extractor)}`);
    }
    return new EventTimeSessionWindows(extractor);
  }

  assignWindows(element: T, timestamp: number | undefined): TimeWindow[] {
    return this.sessionOf(element, requireTimestamp(timestamp, 'EventTimeSessionWindows'));
  }

  getDefaultTrigger(): Trigger<T, TimeWindow> {
    return EventTimeTrigger.create();
  }

  isEventTime(): boolean {
    return true;
  }

  override toString(): string {
    return 'EventTimeSessionWindows()';
  }
}

/** Sessions in processing time. */
export class ProcessingTimeSessionWindows<T = unknown> extends SessionWindows<T> {
  /** Sessions that close after `gap` ms of processing time without an element. */
  static withGap(gap: number): ProcessingTimeSessionWindows {
    requirePositive(gap, 'ProcessingTimeSessionWindows gap');
    return new ProcessingTimeSessionWindows(() => gap);
  }

  /** Processing-time sessions whose gap each element gives through `extractor` (ms). */
  static withDynamicGap<T>(extractor: SessionWindowTimeGapExtractor<T>): ProcessingTimeSessionWindows<T> {
    if (typeof extractor !== 'function') {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `ProcessingTimeSessionWindows.withDynamicGap() takes a function (element) => gap, got ${String(extractor)}`);
    }
    return new ProcessingTimeSessionWindows(extractor);
  }

  assignWindows(element: T, _timestamp: number | undefined, context: WindowAssignerContext): TimeWindow[] {
    return this.sessionOf(element, context.getCurrentProcessingTime());
  }

  getDefaultTrigger(): Trigger<T, TimeWindow> {
    return ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return 'ProcessingTimeSessionWindows()';
  }
}

/** One window per key holding everything; fires only by a trigger you set (`countWindow` does). */
export class GlobalWindows extends WindowAssigner<unknown, GlobalWindow> {
  private constructor() {
    super();
  }

  /** The global window assigner; set a trigger, as its default never fires. */
  static create(): GlobalWindows {
    return new GlobalWindows();
  }

  assignWindows(): GlobalWindow[] {
    return [GlobalWindow.get()];
  }

  getDefaultTrigger(): Trigger<unknown, Window> {
    return new NeverTrigger();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return 'GlobalWindows()';
  }
}
