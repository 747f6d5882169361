import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { RichFunction } from './types.ts';

/**
 * Where an async function puts the result of one input (Flink's ResultFuture): `complete` with
 * the output records (none to emit nothing), or `completeExceptionally` to fail the job (or
 * to have the retry strategy try again). Only the first call counts, as in Flink.
 */
export interface ResultFuture<OUT> {
  /** Completes the input with its output records (empty to emit nothing). */
  complete(results: Iterable<OUT>): void;
  /** Fails the input: the retry strategy may try again, else the job fails. */
  completeExceptionally(error: unknown): void;
}

/**
 * A function that looks something up for each record without blocking the task (Flink's
 * AsyncFunction). Either complete `resultFuture`, or return a promise of the output records
 * (Weir's promise form: a fulfilled promise completes with its records, a rejected one
 * completes exceptionally; a promise of undefined leaves completion to `resultFuture`).
 */
export interface AsyncFunction<IN, OUT> {
  /** Starts the lookup for `input`; must not block (Weir also takes a returned promise, which Flink does not). */
  asyncInvoke(input: IN, resultFuture: ResultFuture<OUT>): void | Promise<Iterable<OUT> | void>;
  /**
   * The input's time ran out (the operator's timeout, counted from the first attempt). Complete
   * `resultFuture` with a fallback, or exceptionally. Without it the job fails with ASYNC_TIMEOUT.
   */
  timeout?(input: IN, resultFuture: ResultFuture<OUT>): void;
}

/** An AsyncFunction with a runtime context, open and close (Flink's RichAsyncFunction); state is not available to it, as in Flink. */
export abstract class RichAsyncFunction<IN, OUT> extends RichFunction implements AsyncFunction<IN, OUT> {
  /** Starts the lookup for `input`; complete `resultFuture` or return a promise of the records. */
  abstract asyncInvoke(input: IN, resultFuture: ResultFuture<OUT>): void | Promise<Iterable<OUT> | void>;

  /** Flink's default: fail with a timeout error. Override it to emit a fallback instead. */
  timeout(input: IN, resultFuture: ResultFuture<OUT>): void {
    resultFuture.completeExceptionally(asyncTimeoutError(input));
  }
}

/** The error a timed-out input fails the job with (Flink's TimeoutException "Async function call has timed out."). */
export function asyncTimeoutError(input: unknown, timeoutMs?: number): WeirError {
  const after = timeoutMs === undefined ? '' : ` after ${timeoutMs} ms`;
  return new WeirError(ApiErrorCode.ASYNC_TIMEOUT, `Async function call has timed out${after} (input: ${preview(input)}); raise the timeout, or override timeout() to emit a fallback`);
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** When to try an input again (Flink's AsyncRetryPredicate): on a result, on an error, or both. */
export interface AsyncRetryPredicate<OUT> {
  /** Try again when this holds for an attempt's results. */
  readonly resultPredicate?: (results: readonly OUT[]) => boolean;
  /** Try again when this holds for an attempt's error. */
  readonly exceptionPredicate?: (error: unknown) => boolean;
}

/**
 * How often and after how long an input is tried again (Flink's AsyncRetryStrategy):
 * `currentAttempts` counts the attempts made so far, from 1.
 */
export interface AsyncRetryStrategy<OUT> {
  /** Whether another attempt may follow `currentAttempts` attempts. */
  canRetry(currentAttempts: number): boolean;
  /** How long to wait (ms) before the next attempt. */
  getBackoffTimeMillis(currentAttempts: number): number;
  /** When an attempt's outcome calls for another. */
  getRetryPredicate(): AsyncRetryPredicate<OUT>;
}

/** Flink's RetryPredicates. */
export const RetryPredicates = {
  /** Retry when the result has no records. */
  EMPTY_RESULT_PREDICATE: (results: readonly unknown[]): boolean => results.length === 0,
  /** Retry on any error. */
  HAS_EXCEPTION_PREDICATE: (_error: unknown): boolean => true,
} as const;

function requireCount(value: number, what: string, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new WeirError(ApiErrorCode.INVALID_ASYNC_SETTINGS, `${what} must be a whole number >= ${min}, got ${String(value)}`);
  return value;
}

function requireDelay(value: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new WeirError(ApiErrorCode.INVALID_ASYNC_SETTINGS, `${what} must be a number of ms >= 0, got ${String(value)}`);
  return value;
}

abstract class RetryStrategyBuilder<OUT, Self> {
  /** Set by `ifResult`. */
  protected resultPredicate: ((results: readonly OUT[]) => boolean) | undefined;
  /** Set by `ifException`. */
  protected exceptionPredicate: ((error: unknown) => boolean) | undefined;

  /** Retry when `predicate` holds for an attempt's results. */
  ifResult(predicate: (results: readonly OUT[]) => boolean): Self {
    this.resultPredicate = predicate;
    return this as unknown as Self;
  }

  /** Retry when `predicate` holds for an attempt's error. */
  ifException(predicate: (error: unknown) => boolean): Self {
    this.exceptionPredicate = predicate;
    return this as unknown as Self;
  }

  protected predicate(): AsyncRetryPredicate<OUT> {
    return {
      ...(this.resultPredicate === undefined ? {} : { resultPredicate: this.resultPredicate }),
      ...(this.exceptionPredicate === undefined ? {} : { exceptionPredicate: this.exceptionPredicate }),
    };
  }
}

class FixedDelayRetryStrategyBuilder<OUT> extends RetryStrategyBuilder<OUT, FixedDelayRetryStrategyBuilder<OUT>> {
  readonly #maxAttempts: number;
  readonly #backoffMs: number;

  constructor(maxAttempts: number, backoffTimeMillis: number) {
    super();
    this.#maxAttempts = requireCount(maxAttempts, 'maxAttempts of a fixed-delay retry strategy', 1);
    this.#backoffMs = requireDelay(backoffTimeMillis, 'the backoff of a fixed-delay retry strategy');
  }

  build(): AsyncRetryStrategy<OUT> {
    const maxAttempts = this.#maxAttempts;
    const backoff = this.#backoffMs;
    const predicate = this.predicate();
    return {
      canRetry: (currentAttempts) => currentAttempts <= maxAttempts,
      getBackoffTimeMillis: () => backoff,
      getRetryPredicate: () => predicate,
    };
  }
}

class ExponentialBackoffDelayRetryStrategyBuilder<OUT> extends RetryStrategyBuilder<OUT, ExponentialBackoffDelayRetryStrategyBuilder<OUT>> {
  readonly #maxAttempts: number;
  readonly #initialDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #multiplier: number;

  constructor(maxAttempts: number, initialDelay: number, maxRetryDelay: number, multiplier: number) {
    super();
    this.#maxAttempts = requireCount(maxAttempts, 'maxAttempts of an exponential-backoff retry strategy', 1);
    this.#initialDelayMs = requireDelay(initialDelay, 'the initial delay of an exponential-backoff retry strategy');
    this.#maxRetryDelayMs = requireDelay(maxRetryDelay, 'the max delay of an exponential-backoff retry strategy');
    if (typeof multiplier !== 'number' || !(multiplier >= 1)) {
      throw new WeirError(ApiErrorCode.INVALID_ASYNC_SETTINGS, `the multiplier of an exponential-backoff retry strategy must be >= 1, got ${String(multiplier)}`);
    }
    this.#multiplier = multiplier;
  }

  build(): AsyncRetryStrategy<OUT> {
    const [maxAttempts, initial, max, multiplier] = [this.#maxAttempts, this.#initialDelayMs, this.#maxRetryDelayMs, this.#multiplier];
    const predicate = this.predicate();
    return {
      canRetry: (currentAttempts) => currentAttempts <= maxAttempts,
      // Computed from the attempt, where Flink keeps the last delay: a restored input retries with the same delays.
      getBackoffTimeMillis: (currentAttempts) => Math.min(initial * multiplier ** Math.max(0, currentAttempts - 1), max),
      getRetryPredicate: () => predicate,
    };
  }
}

/** Flink's AsyncRetryStrategies. */
export const AsyncRetryStrategies = {
  NO_RETRY_STRATEGY: {
    canRetry: () => false,
    getBackoffTimeMillis: () => -1,
    getRetryPredicate: () => ({}),
  } as AsyncRetryStrategy<never>,
  FixedDelayRetryStrategyBuilder,
  ExponentialBackoffDelayRetryStrategyBuilder,
} as const;

/** Flink's TimeUnit, for AsyncDataStream's timeout. */
export const TimeUnit = {
  MILLISECONDS: 'MILLISECONDS',
  SECONDS: 'SECONDS',
  MINUTES: 'MINUTES',
  HOURS: 'HOURS',
} as const;
export type TimeUnit = (typeof TimeUnit)[keyof typeof TimeUnit];

const UNIT_MS: Record<TimeUnit, number> = { MILLISECONDS: 1, SECONDS: 1000, MINUTES: 60_000, HOURS: 3_600_000 };

/** Whether an async operator emits in input order or as results complete (Flink's AsyncDataStream.OutputMode). */
export type AsyncOutputMode = 'ordered' | 'unordered';

/** An async operator's settings (AsyncDataStream's arguments). */
export interface AsyncWaitSettings {
  /** ORDERED: results leave in input order; UNORDERED: as they complete, but never across a watermark. */
  readonly mode: AsyncOutputMode;
  readonly timeoutMs: number;
  /** At most this many inputs in flight; the task takes no more records while it is full. */
  readonly capacity: number;
  readonly retry: AsyncRetryStrategy<unknown> | undefined;
}

export function asyncWaitSettings(mode: AsyncOutputMode, timeout: number, unit: TimeUnit, capacity: number, retry: AsyncRetryStrategy<unknown> | undefined): AsyncWaitSettings {
  const factor = UNIT_MS[unit];
  if (factor === undefined) throw new WeirError(ApiErrorCode.INVALID_ASYNC_SETTINGS, `the time unit must be one of ${Object.keys(UNIT_MS).join(', ')}, got ${String(unit)}`);
  if (typeof timeout !== 'number' || !(timeout > 0) || !Number.isFinite(timeout)) {
    throw new WeirError(ApiErrorCode.INVALID_ASYNC_SETTINGS, `the async timeout must be > 0, got ${String(timeout)}`);
  }
  requireCount(capacity, 'the capacity of an async operator', 1);
  if (retry !== undefined && (typeof retry !== 'object' || retry === null || typeof retry.canRetry !== 'function' || typeof retry.getBackoffTimeMillis !== 'function')) {
    throw new WeirError(ApiErrorCode.INVALID_ASYNC_SETTINGS, `the retry strategy must be an AsyncRetryStrategy, such as new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder(3, 100).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build()`);
  }
  return { mode, timeoutMs: timeout * factor, capacity, retry };
}

/** `asyncInvoke` as an object; a function `(input) => Promise<records>` becomes one. */
export function toAsyncFunction<IN, OUT>(fn: AsyncFunction<IN, OUT> | ((input: IN) => Promise<Iterable<OUT>>)): AsyncFunction<unknown, unknown> {
  if (typeof fn === 'function' && !/^class[\s{]/.test(Function.prototype.toString.call(fn))) return { asyncInvoke: fn as (input: unknown) => Promise<Iterable<unknown>> };
  if (typeof fn === 'object' && fn !== null && typeof fn.asyncInvoke === 'function') return fn as AsyncFunction<unknown, unknown>;
  throw new WeirError(ApiErrorCode.INVALID_ASYNC_SETTINGS, `AsyncDataStream takes an AsyncFunction (an object with asyncInvoke(input, resultFuture)) or a function (input) => Promise<records>, got ${String(fn)}`);
}
