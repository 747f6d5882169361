import {
  asyncWaitSettings,
  toAsyncFunction,
  TimeUnit,
  type AsyncFunction,
  type AsyncOutputMode,
  type AsyncRetryStrategy,
} from '../functions/async.ts';
import type { DataStream } from './data-stream.ts';
import type { SingleOutputStreamOperator } from './single-output-stream-operator.ts';
import { inputsFrom } from './transformation.ts';

type AnyAsyncFunction<IN, OUT> = AsyncFunction<IN, OUT> | ((input: IN) => Promise<Iterable<OUT>>);

/** Flink's default capacity of an async operator. */
const DEFAULT_CAPACITY = 100;

/**
 * Async I/O (Flink's AsyncDataStream): an operator that calls `fn.asyncInvoke` per record and
 * keeps up to `capacity` inputs in flight. `orderedWait` emits results in input order,
 * `unorderedWait` as they complete but never across a watermark. An input not completed
 * within `timeout` (from its first attempt, retries included) goes to `fn.timeout()`, which
 * by default fails the job. In-flight inputs are kept in checkpoints and invoked again after a
 * restore, so with an exactly-once sink every input's result is emitted once.
 */
export const AsyncDataStream = {
  /** Async I/O emitting results in input order (Flink's AsyncDataStream.orderedWait): `timeout` per input, at most `capacity` in flight. */
  orderedWait<IN, OUT>(stream: DataStream<IN>, fn: AnyAsyncFunction<IN, OUT>, timeout: number, timeUnit: TimeUnit = TimeUnit.MILLISECONDS, capacity = DEFAULT_CAPACITY): SingleOutputStreamOperator<OUT> {
    return addAsync(stream, fn, 'ordered', timeout, timeUnit, capacity, undefined);
  },

  /** Async I/O emitting results as they complete, never across a watermark (Flink's AsyncDataStream.unorderedWait). */
  unorderedWait<IN, OUT>(stream: DataStream<IN>, fn: AnyAsyncFunction<IN, OUT>, timeout: number, timeUnit: TimeUnit = TimeUnit.MILLISECONDS, capacity = DEFAULT_CAPACITY): SingleOutputStreamOperator<OUT> {
    return addAsync(stream, fn, 'unordered', timeout, timeUnit, capacity, undefined);
  },

  /** orderedWait that tries an input again as `retry` says (Flink's orderedWaitWithRetry). */
  orderedWaitWithRetry<IN, OUT>(
    stream: DataStream<IN>,
    fn: AnyAsyncFunction<IN, OUT>,
    timeout: number,
    timeUnit: TimeUnit,
    capacity: number,
    retry: AsyncRetryStrategy<OUT>,
  ): SingleOutputStreamOperator<OUT> {
    return addAsync(stream, fn, 'ordered', timeout, timeUnit, capacity, retry as AsyncRetryStrategy<unknown>);
  },

  /** unorderedWait that tries an input again as `retry` says (Flink's unorderedWaitWithRetry). */
  unorderedWaitWithRetry<IN, OUT>(
    stream: DataStream<IN>,
    fn: AnyAsyncFunction<IN, OUT>,
    timeout: number,
    timeUnit: TimeUnit,
    capacity: number,
    retry: AsyncRetryStrategy<OUT>,
  ): SingleOutputStreamOperator<OUT> {
    return addAsync(stream, fn, 'unordered', timeout, timeUnit, capacity, retry as AsyncRetryStrategy<unknown>);
  },
} as const;

function addAsync<IN, OUT>(
  stream: DataStream<IN>,
  fn: AnyAsyncFunction<IN, OUT>,
  mode: AsyncOutputMode,
  timeout: number,
  timeUnit: TimeUnit,
  capacity: number,
  retry: AsyncRetryStrategy<unknown> | undefined,
): SingleOutputStreamOperator<OUT> {
  const settings = asyncWaitSettings(mode, timeout, timeUnit, capacity, retry);
  return stream.builder.addOperator({ kind: 'asyncWait', fn: toAsyncFunction(fn), settings }, 'async wait operator', inputsFrom(stream.refs, 0));
}
