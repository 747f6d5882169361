import type { CoProcessFunction, KeyedCoProcessFunction, KeySelector, OperatorSpec, StateDescriptor } from '@weir/api';
import { AbstractStreamOperatorTestHarness, DEFAULT_START_MS, type HarnessSetup, type HarnessSnapshot } from './harness-base.ts';

/**
 * One two-input operator outside a cluster, as Flink's TwoInputStreamOperatorTestHarness and
 * KeyedTwoInputStreamOperatorTestHarness: a CoProcessFunction, or a KeyedCoProcessFunction
 * with a key selector per input (`connect(a.keyBy(f), b.keyBy(g))`). `processElement1` and
 * `processElement2` feed the two inputs; `processWatermark` advances both inputs' watermark at
 * once (Flink's processBothWatermarks; per-input watermarks are combined by the task, which
 * the harness does not run).
 */
export class TwoInputStreamOperatorTestHarness<IN1, IN2, OUT, K = never> extends AbstractStreamOperatorTestHarness<OUT> {
  private constructor(setup: HarnessSetup, restored?: HarnessSnapshot) {
    super(setup, restored);
  }

  /** A harness for a CoProcessFunction (non-keyed). */
  static forCoProcessFunction<IN1, IN2, OUT>(fn: CoProcessFunction<IN1, IN2, OUT>, options: { readonly startTime?: number } = {}): TwoInputStreamOperatorTestHarness<IN1, IN2, OUT> {
    const spec = { kind: 'coProcess', fn } as unknown as OperatorSpec;
    return new TwoInputStreamOperatorTestHarness({ spec, startTime: options.startTime ?? DEFAULT_START_MS, keyed: false });
  }

  /** A harness for a KeyedCoProcessFunction whose inputs are keyed by `key1` and `key2` (Flink's KeyedTwoInputStreamOperatorTestHarness). */
  static forKeyedCoProcessFunction<K, IN1, IN2, OUT>(
    fn: KeyedCoProcessFunction<K, IN1, IN2, OUT>,
    key1: KeySelector<IN1, K>,
    key2: KeySelector<IN2, K>,
    options: { readonly startTime?: number } = {},
  ): TwoInputStreamOperatorTestHarness<IN1, IN2, OUT, K> {
    const spec = { kind: 'coProcess', fn, keys: [key1, key2] } as unknown as OperatorSpec;
    return new TwoInputStreamOperatorTestHarness({ spec, startTime: options.startTime ?? DEFAULT_START_MS, keyed: true });
  }

  /** A new harness for the same function with the state of `snapshot`. */
  static restore<IN1, IN2, OUT, K>(like: TwoInputStreamOperatorTestHarness<IN1, IN2, OUT, K>, snapshot: HarnessSnapshot): TwoInputStreamOperatorTestHarness<IN1, IN2, OUT, K> {
    return new TwoInputStreamOperatorTestHarness(like.setup, snapshot);
  }

  /** One record on the first input, with event time `timestamp` (undefined: none). */
  processElement1(value: IN1, timestamp?: number): Promise<void> {
    return this.push(0, value, timestamp);
  }

  /** One record on the second input, with event time `timestamp` (undefined: none). */
  processElement2(value: IN2, timestamp?: number): Promise<void> {
    return this.push(1, value, timestamp);
  }

  /** Keyed state of `descriptor` for `key` (a keyed harness only): what the function would read with that key current. */
  getKeyedState<T>(key: K, descriptor: StateDescriptor<T>): unknown {
    return this.keyedState(key, descriptor as StateDescriptor<unknown>);
  }
}
