import { KeyedProcessFunction, Types, type StateTtlConfig, ValueStateDescriptor, type Collector, type KeyedProcessContext, type ValueState } from '@weir/api';
import type { Row } from '../row.ts';
import type { Accumulator } from './aggregates.ts';

/**
 * GROUP BY without windows (Flink's GroupAggFunction) over insert-only input: per key, the
 * accumulators in keyed state; the first row of a key emits +I, every later one that changes
 * the result emits -U of the old result and +U of the new (nothing when it is unchanged).
 */
export class GroupAggregateFunction extends KeyedProcessFunction<string, Row, Row> {
  #state!: ValueState<unknown[]>;

  constructor(
    private readonly keyIndexes: readonly number[],
    private readonly args: ReadonlyArray<number | undefined>,
    private readonly accumulators: readonly Accumulator[],
    /** table.exec.state.ttl: a key's accumulators not written for this long are dropped; an unchanged result is then emitted again, as Flink does. */
    private readonly ttl?: StateTtlConfig,
  ) {
    super();
  }

  override open(): void {
    const descriptor = new ValueStateDescriptor<unknown[]>('accumulators', Types.GENERIC<unknown[]>());
    if (this.ttl !== undefined) descriptor.enableTimeToLive(this.ttl);
    this.#state = this.getRuntimeContext().getState(descriptor);
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const previous = this.#state.value();
    const accs = previous ?? this.accumulators.map((a) => a.create());
    const next = accs.map((acc, i) => {
      const arg = this.args[i];
      return this.accumulators[i]!.add(acc, arg === undefined ? 1 : (row.fields[arg] ?? null));
    });
    this.#state.update(next);
    const keys = this.keyIndexes.map((k) => row.fields[k] ?? null);
    const result = [...keys, ...next.map((acc, i) => this.accumulators[i]!.result(acc))];
    if (previous === null || previous === undefined) {
      out.collect({ kind: '+I', fields: result });
      return;
    }
    const before = [...keys, ...previous.map((acc, i) => this.accumulators[i]!.result(acc))];
    if (this.ttl === undefined && before.every((v, i) => v === result[i])) return;
    out.collect({ kind: '-U', fields: before });
    out.collect({ kind: '+U', fields: result });
  }
}
