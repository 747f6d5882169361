import type { KeyedProcessFunction, KeySelector, OperatorSpec, StateDescriptor } from '@weir/api';
import { AbstractStreamOperatorTestHarness, DEFAULT_START_MS, type HarnessSetup, type HarnessSnapshot } from './harness-base.ts';

/**
 * One keyed operator outside a cluster, as Flink's KeyedOneInputStreamOperatorTestHarness:
 * the runtime's own operator classes with heap keyed state and a processing-time clock the
 * test moves. Push records (`processElement`) and watermarks, move processing time, read the
 * main output and side outputs, inspect keyed state per key, snapshot and restore. Built with
 * `forKeyedProcessFunction` (Flink's ProcessFunctionTestHarnesses.forKeyedProcessFunction).
 * Unlike Flink there is no operator instance to hand in: Weir's operators are made from the
 * function by the runtime, as in a task.
 */
export class KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> extends AbstractStreamOperatorTestHarness<OUT> {
  private constructor(setup: HarnessSetup, restored?: HarnessSnapshot) {
    super(setup, restored);
  }

  /** A harness for a KeyedProcessFunction keyed by `key`; `startTime` is the initial processing time (ms). */
  static forKeyedProcessFunction<K, IN, OUT>(
    fn: KeyedProcessFunction<K, IN, OUT>,
    key: KeySelector<IN, K>,
    options: { readonly startTime?: number } = {},
  ): KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> {
    const spec = { kind: 'keyedProcess', fn, key } as unknown as OperatorSpec;
    return new KeyedOneInputStreamOperatorTestHarness({ spec, startTime: options.startTime ?? DEFAULT_START_MS, keyed: true });
  }

  /** A new harness for the same function with the state of `snapshot` (Flink's initializeState(snapshot) then open()). */
  static restore<K, IN, OUT>(like: KeyedOneInputStreamOperatorTestHarness<K, IN, OUT>, snapshot: HarnessSnapshot): KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> {
    return new KeyedOneInputStreamOperatorTestHarness(like.setup, snapshot);
  }

  /** One record, with event time `timestamp` (undefined: none); resolves once the timers it made due fired. */
  processElement(value: IN, timestamp?: number): Promise<void> {
    return this.push(0, value, timestamp);
  }

  /**
   * The value state, list state contents or map state entries of `descriptor` for `key`
   * (undefined when the key has none): what the function would read with that key current.
   */
  getKeyedState<T>(key: K, descriptor: StateDescriptor<T>): unknown {
    return this.keyedState(key, descriptor as StateDescriptor<unknown>);
  }

  /** Keyed state entries per state name, empty ones left out (Flink's numKeyedStateEntries, by name): what cleanup left behind. */
  numKeyedStateEntries(): Record<string, number> {
    return this.stateEntries();
  }
}
