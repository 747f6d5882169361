import type { FilterFunction, FlatMapFunction, KeySelector, MapFunction, ReduceFunction, ValueState } from '@weir/api';
import { SingleInputOperator } from './function-operator.ts';
import type { OperatorContext } from './operator-context.ts';
import type { Output } from './output.ts';

export class MapOperator extends SingleInputOperator<MapFunction<unknown, unknown>> {
  collect(record: unknown): void {
    let result: unknown;
    try {
      result = this.fn.map(record);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    this.out.collect(result);
  }
}

export class FilterOperator extends SingleInputOperator<FilterFunction<unknown>> {
  collect(record: unknown): void {
    let keep: boolean;
    try {
      keep = this.fn.filter(record);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    if (keep) this.out.collect(record);
  }
}

export class FlatMapOperator extends SingleInputOperator<FlatMapFunction<unknown, unknown>> {
  collect(record: unknown): void {
    try {
      this.fn.flatMap(record, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }
}

/** Keyed reduce, as Flink's: every record emits the key's new accumulated value. */
export class ReduceOperator extends SingleInputOperator<ReduceFunction<unknown>> {
  readonly #accumulator: ValueState<unknown>;

  constructor(fn: ReduceFunction<unknown>, out: Output, context: OperatorContext, key: KeySelector<unknown, unknown>) {
    super(fn, out, context, key);
    this.#accumulator = context.keyed!.getInternalValueState('reduce');
  }

  collect(record: unknown): void {
    const accumulated = this.#accumulator.value();
    let next: unknown;
    try {
      next = accumulated === undefined ? record : this.fn.reduce(accumulated, record);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    this.#accumulator.update(next);
    this.out.collect(next);
  }
}
