import { ValueStateDescriptor } from '../state/types.ts';
import type { TypeInformation } from '../types/type-information.ts';
import { Types } from '../types/types.ts';
import { requireThreshold, toDeltaFunction, type DeltaFunction, type DeltaFunctionLike } from './delta-function.ts';
import { Trigger, TriggerResult, type TriggerContext } from './trigger.ts';
import type { Window } from './windows.ts';

/**
 * Fires when an element's delta to the element of the last firing exceeds `threshold`
 * (Flink's DeltaTrigger): `deltaFunction.getDelta(lastFired, element) > threshold`. The
 * window's first element is the first reference and does not fire. The reference element is
 * trigger state of type `stateType` (any MessagePack value by default). Cannot merge, as in Flink.
 */
export class DeltaTrigger<T> extends Trigger<T, Window> {
  readonly #last: ValueStateDescriptor<T>;

  private constructor(
    private readonly threshold: number,
    private readonly deltaFunction: DeltaFunction<T>,
    stateType: TypeInformation<T>,
  ) {
    super();
    this.#last = new ValueStateDescriptor<T>('last-element', stateType);
  }

  /** Fires when an element's delta from the last fired one exceeds `threshold`; `stateType` types that element in state (Flink takes a TypeSerializer). */
  static of<T>(threshold: number, deltaFunction: DeltaFunctionLike<T>, stateType: TypeInformation<T> = Types.GENERIC<T>()): DeltaTrigger<T> {
    const call = 'DeltaTrigger.of()';
    return new DeltaTrigger(requireThreshold(threshold, call), toDeltaFunction(deltaFunction, call), stateType);
  }

  onElement(element: T, _timestamp: number, _window: Window, ctx: TriggerContext): TriggerResult {
    const last = ctx.getPartitionedState(this.#last);
    const reference = last.value();
    if (reference === undefined) {
      last.update(element);
      return TriggerResult.CONTINUE;
    }
    if (this.deltaFunction.getDelta(reference, element) <= this.threshold) return TriggerResult.CONTINUE;
    last.update(element);
    return TriggerResult.FIRE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  clear(_window: Window, ctx: TriggerContext): void {
    ctx.getPartitionedState(this.#last).clear();
  }

  override toString(): string {
    return `DeltaTrigger(${this.threshold})`;
  }
}
