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

/** What a trigger decides for a window (Flink's TriggerResult). */
export class TriggerResult {
  /** Nothing happens. */
  static readonly CONTINUE = new TriggerResult('CONTINUE', false, false);
  /** The window function runs on the window's contents; the contents stay. */
  static readonly FIRE = new TriggerResult('FIRE', true, false);
  /** The window's contents are dropped without firing. */
  static readonly PURGE = new TriggerResult('PURGE', false, true);
  static readonly FIRE_AND_PURGE = new TriggerResult('FIRE_AND_PURGE', true, true);

  private constructor(
    readonly name: string,
    readonly fire: boolean,
    readonly purge: boolean,
  ) {}

  /** Whether the result evaluates the window function. */
  isFire(): boolean {
    return this.fire;
  }

  /** Whether the result purges the window's contents. */
  isPurge(): boolean {
    return this.purge;
  }

  /** The result's name: CONTINUE, FIRE, PURGE or FIRE_AND_PURGE. */
  toString(): string {
    return this.name;
  }

  /** FIRE if either fires, PURGE if either purges. */
  static merge(a: TriggerResult, b: TriggerResult): TriggerResult {
    const fire = a.fire || b.fire;
    const purge = a.purge || b.purge;
    if (fire) return purge ? TriggerResult.FIRE_AND_PURGE : TriggerResult.FIRE;
    return purge ? TriggerResult.PURGE : TriggerResult.CONTINUE;
  }
}

/** What a trigger may do for the current key and window (Flink's Trigger.TriggerContext). */
export interface TriggerContext {
  /** The operator's processing time (ms). */
  getCurrentProcessingTime(): number;
  /** The operator's current watermark. */
  getCurrentWatermark(): number;
  /** Calls onProcessingTime at `time` for this window. */
  registerProcessingTimeTimer(time: number): void;
  /** Calls onEventTime when the watermark reaches `time`, for this window. */
  registerEventTimeTimer(time: number): void;
  /** Deletes a processing-time timer of this window. */
  deleteProcessingTimeTimer(time: number): void;
  /** Deletes an event-time timer of this window. */
  deleteEventTimeTimer(time: number): void;
  /** State of the current key and window; cleared with the window (a trigger's `clear` must clear what it used). */
  getPartitionedState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  /** The trigger's state for this key and window. */
  getPartitionedState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
  /** The trigger's state for this key and window. */
  getPartitionedState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  /** The trigger's state for this key and window. */
  getPartitionedState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
}

export interface OnMergeContext extends TriggerContext {
  /** Merges the state of the windows being merged into the new window: reducing and list state only. */
  mergePartitionedState(descriptor: ReducingStateDescriptor<unknown> | ListStateDescriptor<unknown>): void;
}

/**
 * Decides when a window fires (Flink's Trigger). Called per element, per timer it set, and
 * when windows merge; `clear` runs when the window is purged and must delete the trigger's
 * timers and state. A trigger is shared by all keys and windows of a subtask: keep state in
 * `ctx.getPartitionedState`, never in fields.
 */
export abstract class Trigger<T, W extends Window> {
  /** Called for every element added to the window: CONTINUE, FIRE, PURGE or FIRE_AND_PURGE. */
  abstract onElement(element: T, timestamp: number, window: W, ctx: TriggerContext): TriggerResult;
  /** Called when a processing-time timer the trigger registered fires. */
  abstract onProcessingTime(time: number, window: W, ctx: TriggerContext): TriggerResult;
  /** Called when an event-time timer the trigger registered fires. */
  abstract onEventTime(time: number, window: W, ctx: TriggerContext): TriggerResult;
  /** Called when the window is purged: delete the trigger's timers and state. */
  abstract clear(window: W, ctx: TriggerContext): void;

  /** True when the trigger works with merging windows (sessions); then it implements onMerge. */
  canMerge(): boolean {
    return false;
  }

  /** Called when windows merge: re-register timers for the merged window. */
  onMerge(_window: W, _ctx: OnMergeContext): void {
    throw new Error(`${this.constructor.name} does not support merging windows; session windows need a trigger whose canMerge() is true`);
  }
}
