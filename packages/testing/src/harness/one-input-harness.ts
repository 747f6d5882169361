import type { Collector, FlatMapFunction, MapFunction, OperatorSpec, ProcessFunction } from '@weir/api';
import { AbstractStreamOperatorTestHarness, DEFAULT_START_MS, type HarnessSetup, type HarnessSnapshot } from './harness-base.ts';

/**
 * One non-keyed operator outside a cluster, as Flink's OneInputStreamOperatorTestHarness: for
 * a ProcessFunction, MapFunction or FlatMapFunction. A function that is a CheckpointedFunction
 * gets its operator state (`getListState`, `getUnionListState`): `snapshot()` runs its
 * snapshotState and copies the lists, and `restore` hands them to the new function's
 * initializeState with `isRestored()` true. Built with `forProcessFunction`, `forMapFunction`
 * or `forFlatMapFunction` rather than from an operator instance (Weir makes operators from
 * functions).
 */
export class OneInputStreamOperatorTestHarness<IN, OUT> extends AbstractStreamOperatorTestHarness<OUT> {
  private constructor(setup: HarnessSetup, restored?: HarnessSnapshot) {
    super(setup, restored);
  }

  /** A harness for a ProcessFunction (Flink's ProcessFunctionTestHarnesses.forProcessFunction). */
  static forProcessFunction<IN, OUT>(fn: ProcessFunction<IN, OUT>, options: { readonly startTime?: number } = {}): OneInputStreamOperatorTestHarness<IN, OUT> {
    return OneInputStreamOperatorTestHarness.#of({ kind: 'process', fn }, options);
  }

  /** A harness for a MapFunction (a plain function or a RichMapFunction). */
  static forMapFunction<IN, OUT>(fn: MapFunction<IN, OUT> | ((value: IN) => OUT), options: { readonly startTime?: number } = {}): OneInputStreamOperatorTestHarness<IN, OUT> {
    return OneInputStreamOperatorTestHarness.#of({ kind: 'map', fn: typeof fn === 'function' ? { map: fn } : fn }, options);
  }

  /** A harness for a FlatMapFunction (a plain function or a RichFlatMapFunction). */
  static forFlatMapFunction<IN, OUT>(
    fn: FlatMapFunction<IN, OUT> | ((value: IN, out: Collector<OUT>) => void),
    options: { readonly startTime?: number } = {},
  ): OneInputStreamOperatorTestHarness<IN, OUT> {
    // The object form the runtime calls, as DataStream.flatMap makes of a lambda.
    return OneInputStreamOperatorTestHarness.#of({ kind: 'flatMap', fn: typeof fn === 'function' ? { flatMap: fn } : fn }, options);
  }

  /** A new harness for the same function with the operator state of `snapshot` (Flink's initializeState(snapshot) then open()). */
  static restore<IN, OUT>(like: OneInputStreamOperatorTestHarness<IN, OUT>, snapshot: HarnessSnapshot): OneInputStreamOperatorTestHarness<IN, OUT> {
    return new OneInputStreamOperatorTestHarness(like.setup, snapshot);
  }

  static #of<IN, OUT>(spec: unknown, options: { readonly startTime?: number }): OneInputStreamOperatorTestHarness<IN, OUT> {
    return new OneInputStreamOperatorTestHarness({ spec: spec as OperatorSpec, startTime: options.startTime ?? DEFAULT_START_MS, keyed: false });
  }

  /** One record, with event time `timestamp` (undefined: none). */
  processElement(value: IN, timestamp?: number): Promise<void> {
    return this.push(0, value, timestamp);
  }
}
