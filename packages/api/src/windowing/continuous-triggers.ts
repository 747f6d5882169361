import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { ReducingStateDescriptor, type ReducingState } from '../state/types.ts';
import { Types } from '../types/types.ts';
import { Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from './trigger.ts';
import type { Window } from './windows.ts';

/** The timers of one time domain, as a continuous trigger uses them. */
interface TimeDomain {
  register(ctx: TriggerContext, time: number): void;
  delete(ctx: TriggerContext, time: number): void;
  /** True when no time is left before the window's end: the next fire time would never come after this one. */
  exhausted(window: Window, ctx: TriggerContext): boolean;
}

const EVENT_TIME: TimeDomain = {
  register: (ctx, time) => ctx.registerEventTimeTimer(time),
  delete: (ctx, time) => ctx.deleteEventTimeTimer(time),
  // The final watermark (+Infinity) of a GlobalWindow, which never ends: each next fire time
  // would be due at once, without end (Flink fires on and on here); the window's end timer fires it once more instead.
  exhausted: (window, ctx) => ctx.getCurrentWatermark() === Number.POSITIVE_INFINITY && window.maxTimestamp() === Number.POSITIVE_INFINITY,
};

const PROCESSING_TIME: TimeDomain = {
  register: (ctx, time) => ctx.registerProcessingTimeTimer(time),
  delete: (ctx, time) => ctx.deleteProcessingTimeTimer(time),
  exhausted: () => false,
};

/**
 * Fires every `interval` ms of one time domain, aligned to multiples of the interval: the
 * first element of a window sets the first fire time, each firing sets the next, never past
 * the window's end. The next fire time is trigger state (`fire-time`), so it is in checkpoints
 * and savepoints with the timer it stands for; merging windows keep the earliest.
 */
abstract class ContinuousTrigger extends Trigger<unknown, Window> {
  readonly #fireTime = new ReducingStateDescriptor<number>('fire-time', Math.min, Types.NUMBER);

  protected constructor(
    private readonly name: string,
    private readonly interval: number,
    private readonly domain: TimeDomain,
  ) {
    super();
  }

  /** Sets the first fire time from `time` (an element's timestamp or the processing time), unless one is set. */
  protected startFiring(time: number, window: Window, ctx: TriggerContext): void {
    const next = ctx.getPartitionedState(this.#fireTime);
    // Rounds toward zero for negative times, as Java's % does in Flink.
    if (next.get() === undefined) this.#registerNext(time - (time % this.interval), window, ctx, next);
  }

  /** FIRE when `time` is the window's fire time, which moves on by the interval. */
  protected fireIfDue(time: number, window: Window, ctx: TriggerContext): TriggerResult {
    const next = ctx.getPartitionedState(this.#fireTime);
    if (next.get() !== time) return TriggerResult.CONTINUE;
    next.clear();
    if (!this.domain.exhausted(window, ctx)) this.#registerNext(time, window, ctx, next);
    return TriggerResult.FIRE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(_window: Window, ctx: OnMergeContext): void {
    ctx.mergePartitionedState(this.#fireTime as ReducingStateDescriptor<unknown>);
    const next = ctx.getPartitionedState(this.#fireTime).get();
    if (next !== undefined) this.domain.register(ctx, next);
  }

  clear(_window: Window, ctx: TriggerContext): void {
    const next = ctx.getPartitionedState(this.#fireTime);
    const time = next.get();
    if (time === undefined) return;
    this.domain.delete(ctx, time);
    next.clear();
  }

  #registerNext(time: number, window: Window, ctx: TriggerContext, next: ReducingState<number>): void {
    const at = Math.min(time + this.interval, window.maxTimestamp());
    next.add(at);
    this.domain.register(ctx, at);
  }

  override toString(): string {
    return `${this.name}(${this.interval})`;
  }
}

function requireInterval(interval: number, call: string): number {
  if (!Number.isSafeInteger(interval) || interval < 1) {
    throw new WeirError(ApiErrorCode.INVALID_WINDOW, `${call} takes an interval of a whole number of milliseconds >= 1, got ${String(interval)}`);
  }
  return interval;
}

/**
 * Fires a window every `interval` ms of event time and when the watermark passes its end
 * (Flink's ContinuousEventTimeTrigger). An element for a window the watermark already passed
 * (allowed lateness) fires it at once, as with EventTimeTrigger.
 */
export class ContinuousEventTimeTrigger extends ContinuousTrigger {
  private constructor(interval: number) {
    super('ContinuousEventTimeTrigger', interval, EVENT_TIME);
  }

  /** `interval` in ms (`Time.seconds(10)`). */
  static of(interval: number): ContinuousEventTimeTrigger {
    return new ContinuousEventTimeTrigger(requireInterval(interval, 'ContinuousEventTimeTrigger.of()'));
  }

  onElement(_element: unknown, timestamp: number, window: Window, ctx: TriggerContext): TriggerResult {
    if (window.maxTimestamp() <= ctx.getCurrentWatermark()) return TriggerResult.FIRE;
    ctx.registerEventTimeTimer(window.maxTimestamp());
    // An element without a timestamp (-Infinity here) has no interval to start from.
    if (Number.isFinite(timestamp)) this.startFiring(timestamp, window, ctx);
    return TriggerResult.CONTINUE;
  }

  onEventTime(time: number, window: Window, ctx: TriggerContext): TriggerResult {
    if (time === window.maxTimestamp()) return TriggerResult.FIRE;
    return this.fireIfDue(time, window, ctx);
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }
}

/** Fires a window every `interval` ms of processing time (Flink's ContinuousProcessingTimeTrigger). */
export class ContinuousProcessingTimeTrigger extends ContinuousTrigger {
  private constructor(interval: number) {
    super('ContinuousProcessingTimeTrigger', interval, PROCESSING_TIME);
  }

  /** `interval` in ms (`Time.seconds(10)`). */
  static of(interval: number): ContinuousProcessingTimeTrigger {
    return new ContinuousProcessingTimeTrigger(requireInterval(interval, 'ContinuousProcessingTimeTrigger.of()'));
  }

  onElement(_element: unknown, _timestamp: number, window: Window, ctx: TriggerContext): TriggerResult {
    this.startFiring(ctx.getCurrentProcessingTime(), window, ctx);
    return TriggerResult.CONTINUE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(time: number, window: Window, ctx: TriggerContext): TriggerResult {
    return this.fireIfDue(time, window, ctx);
  }
}
