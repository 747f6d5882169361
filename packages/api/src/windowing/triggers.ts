import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { ReducingStateDescriptor } from '../state/types.ts';
import { Types } from '../types/types.ts';
import { Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from './trigger.ts';
import type { Window } from './windows.ts';

/**
 * Fires when the watermark passes the window's end (the default of event-time windows).
 * An element for a window the watermark already passed (allowed lateness) fires it again at once.
 */
export class EventTimeTrigger extends Trigger<unknown, Window> {
  private constructor() {
    super();
  }

  /** The event-time trigger (one instance serves every window). */
  static create(): EventTimeTrigger {
    return new EventTimeTrigger();
  }

  onElement(_element: unknown, _timestamp: number, window: Window, ctx: TriggerContext): TriggerResult {
    if (window.maxTimestamp() <= ctx.getCurrentWatermark()) return TriggerResult.FIRE;
    ctx.registerEventTimeTimer(window.maxTimestamp());
    return TriggerResult.CONTINUE;
  }

  onEventTime(time: number, window: Window): TriggerResult {
    return time === window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(window: Window, ctx: OnMergeContext): void {
    // Only while the window is still ahead of the watermark: a timer behind it would fire at once, and the cleanup fires a late window.
    if (window.maxTimestamp() > ctx.getCurrentWatermark()) ctx.registerEventTimeTimer(window.maxTimestamp());
  }

  clear(window: Window, ctx: TriggerContext): void {
    ctx.deleteEventTimeTimer(window.maxTimestamp());
  }

  override toString(): string {
    return 'EventTimeTrigger()';
  }
}

/** Fires when processing time passes the window's end (the default of processing-time windows). */
export class ProcessingTimeTrigger extends Trigger<unknown, Window> {
  private constructor() {
    super();
  }

  /** The processing-time trigger (one instance serves every window). */
  static create(): ProcessingTimeTrigger {
    return new ProcessingTimeTrigger();
  }

  onElement(_element: unknown, _timestamp: number, window: Window, ctx: TriggerContext): TriggerResult {
    ctx.registerProcessingTimeTimer(window.maxTimestamp());
    return TriggerResult.CONTINUE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.FIRE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(window: Window, ctx: OnMergeContext): void {
    if (window.maxTimestamp() > ctx.getCurrentProcessingTime()) ctx.registerProcessingTimeTimer(window.maxTimestamp());
  }

  clear(window: Window, ctx: TriggerContext): void {
    ctx.deleteProcessingTimeTimer(window.maxTimestamp());
  }

  override toString(): string {
    return 'ProcessingTimeTrigger()';
  }
}

const sum = (a: number, b: number): number => a + b;

/** Fires every `maxCount` elements of a window (with `countWindow(n)`, wrapped in a PurgingTrigger). */
export class CountTrigger extends Trigger<unknown, Window> {
  readonly #count = new ReducingStateDescriptor<number>('count', sum, Types.NUMBER);

  private constructor(private readonly maxCount: number) {
    super();
  }

  /** Fires once a window holds `maxCount` elements. */
  static of(maxCount: number): CountTrigger {
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `CountTrigger.of() takes a whole number of elements >= 1, got ${String(maxCount)}`);
    }
    return new CountTrigger(maxCount);
  }

  onElement(_element: unknown, _timestamp: number, _window: Window, ctx: TriggerContext): TriggerResult {
    const count = ctx.getPartitionedState(this.#count);
    count.add(1);
    if ((count.get() ?? 0) < this.maxCount) return TriggerResult.CONTINUE;
    count.clear();
    return TriggerResult.FIRE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(_window: Window, ctx: OnMergeContext): void {
    ctx.mergePartitionedState(this.#count as ReducingStateDescriptor<unknown>);
  }

  clear(_window: Window, ctx: TriggerContext): void {
    ctx.getPartitionedState(this.#count).clear();
  }

  override toString(): string {
    return `CountTrigger(${this.maxCount})`;
  }
}

/** Turns every FIRE of the wrapped trigger into FIRE_AND_PURGE: each firing sees only what came since the last. */
export class PurgingTrigger<T, W extends Window> extends Trigger<T, W> {
  private constructor(private readonly nested: Trigger<T, W>) {
    super();
  }

  /** Wraps `nested`, purging the window whenever it fires. */
  static of<T, W extends Window>(nested: Trigger<T, W>): PurgingTrigger<T, W> {
    if (!(nested instanceof Trigger)) {
      throw new WeirError(ApiErrorCode.INVALID_WINDOW, `PurgingTrigger.of() takes a Trigger, such as CountTrigger.of(100), got ${String(nested)}`);
    }
    return new PurgingTrigger(nested);
  }

  onElement(element: T, timestamp: number, window: W, ctx: TriggerContext): TriggerResult {
    return purging(this.nested.onElement(element, timestamp, window, ctx));
  }

  onEventTime(time: number, window: W, ctx: TriggerContext): TriggerResult {
    return purging(this.nested.onEventTime(time, window, ctx));
  }

  onProcessingTime(time: number, window: W, ctx: TriggerContext): TriggerResult {
    return purging(this.nested.onProcessingTime(time, window, ctx));
  }

  override canMerge(): boolean {
    return this.nested.canMerge();
  }

  override onMerge(window: W, ctx: OnMergeContext): void {
    this.nested.onMerge(window, ctx);
  }

  clear(window: W, ctx: TriggerContext): void {
    this.nested.clear(window, ctx);
  }

  override toString(): string {
    return `PurgingTrigger(${String(this.nested)})`;
  }
}

function purging(result: TriggerResult): TriggerResult {
  return result.isFire() ? TriggerResult.FIRE_AND_PURGE : result;
}

/** Never fires (the default of GlobalWindows): set a trigger of your own. */
export class NeverTrigger extends Trigger<unknown, Window> {
  onElement(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(): void {}

  clear(): void {}
}
