import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';

/** How far apart two elements are (Flink's DeltaFunction), for DeltaTrigger and DeltaEvictor. */
export interface DeltaFunction<T> {
  /** The distance from `oldDataPoint` to `newDataPoint`. */
  getDelta(oldDataPoint: T, newDataPoint: T): number;
}

/** A DeltaFunction, or a lambda of its getDelta. */
export type DeltaFunctionLike<T> = DeltaFunction<T> | ((oldDataPoint: T, newDataPoint: T) => number);

export function toDeltaFunction<T>(fn: DeltaFunctionLike<T>, call: string): DeltaFunction<T> {
  if (typeof fn === 'function') return { getDelta: fn };
  if (fn !== null && typeof fn === 'object' && typeof (fn as { getDelta?: unknown }).getDelta === 'function') return fn;
  throw new WeirError(ApiErrorCode.INVALID_FUNCTION, `${call} takes a DeltaFunction (with getDelta(oldDataPoint, newDataPoint)) or a function of the two, got ${String(fn)}`);
}

/** A threshold a delta is compared with: any finite number. */
export function requireThreshold(threshold: number, call: string): number {
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
    throw new WeirError(ApiErrorCode.INVALID_WINDOW, `${call} takes a finite number as its threshold, got ${String(threshold)}`);
  }
  return threshold;
}
