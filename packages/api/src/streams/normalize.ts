import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type {
  CoProcessFunction,
  FilterFunction,
  FlatMapFunction,
  KeyedProcessFunction,
  KeySelector,
  MapFunction,
  ProcessFunction,
  ReduceFunction,
} from '../functions/types.ts';
import type { Collector } from '../functions/collector.ts';
import type { Sink } from '../connector/types.ts';

/**
 * Lambdas become the object forms of the function interfaces here, so the runtime calls
 * `fn.map(value)` whatever the user passed; objects (and Rich* instances) pass through as
 * they are, keeping their identity for `isRichFunction`.
 */

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'object') return `an object without the method (${Object.keys(value).join(', ') || 'no own keys'})`;
  return `${typeof value} ${String(value)}`;
}

function isClass(fn: Function): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

function normalize<F>(fn: unknown, method: string, call: string, lambda: string): F {
  if (typeof fn === 'function') {
    if (isClass(fn)) {
      throw new WeirError(
        ApiErrorCode.INVALID_FUNCTION,
        `${call} got the class ${fn.name}; pass an instance: ${call.replace(/\(\)$/, '')}(new ${fn.name}())`,
      );
    }
    return { [method]: fn } as F;
  }
  if (fn !== null && typeof fn === 'object' && typeof (fn as Record<string, unknown>)[method] === 'function') return fn as F;
  throw new WeirError(
    ApiErrorCode.INVALID_FUNCTION,
    `${call} takes ${lambda} or an object with a ${method}() method, got ${describe(fn)}`,
  );
}

function requireMethods<F>(fn: unknown, methods: readonly string[], call: string, expected: string): F {
  const ok =
    fn !== null && typeof fn === 'object' && methods.every((m) => typeof (fn as Record<string, unknown>)[m] === 'function');
  if (!ok) {
    throw new WeirError(ApiErrorCode.INVALID_FUNCTION, `${call} takes ${expected} (with ${methods.join(' and ')}()), got ${describe(fn)}`);
  }
  return fn as F;
}

export function toMapFunction<I, O>(fn: MapFunction<I, O> | ((value: I) => O)): MapFunction<unknown, unknown> {
  return normalize(fn, 'map', 'map()', 'a function (value) => result');
}

export function toFilterFunction<T>(fn: FilterFunction<T> | ((value: T) => boolean)): FilterFunction<unknown> {
  return normalize(fn, 'filter', 'filter()', 'a function (value) => boolean');
}

export function toFlatMapFunction<I, O>(
  fn: FlatMapFunction<I, O> | ((value: I, out: Collector<O>) => void),
): FlatMapFunction<unknown, unknown> {
  return normalize(fn, 'flatMap', 'flatMap()', 'a function (value, out) => void');
}

export function toReduceFunction<T>(fn: ReduceFunction<T> | ((accumulated: T, value: T) => T)): ReduceFunction<unknown> {
  return normalize(fn, 'reduce', 'reduce()', 'a function (accumulated, value) => result');
}

export function toProcessFunction(fn: unknown): ProcessFunction<unknown, unknown> {
  return requireMethods(fn, ['processElement'], 'process()', 'a ProcessFunction instance');
}

export function toKeyedProcessFunction(fn: unknown): KeyedProcessFunction<unknown, unknown, unknown> {
  return requireMethods(fn, ['processElement'], 'process()', 'a KeyedProcessFunction instance');
}

export function toCoProcessFunction(fn: unknown): CoProcessFunction<unknown, unknown, unknown> {
  return requireMethods(fn, ['processElement1', 'processElement2'], 'process()', 'a CoProcessFunction or KeyedCoProcessFunction instance');
}

export function toKeySelector<T, K>(selector: KeySelector<T, K>, call: string): KeySelector<unknown, unknown> {
  if (typeof selector !== 'function' || isClass(selector)) {
    throw new WeirError(ApiErrorCode.INVALID_FUNCTION, `${call} takes a key selector function (record) => key, got ${describe(selector)}`);
  }
  return selector as KeySelector<unknown, unknown>;
}

export function toSink<T>(sink: Sink<T>): Sink<unknown> {
  return requireMethods(sink, ['createWriter'], 'sinkTo()', 'a Sink such as FileSink.forRowFormat(...).build()');
}
