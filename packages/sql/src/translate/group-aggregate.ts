import { KeyedProcessFunction, MapStateDescriptor, Types, type StateTtlConfig, ValueStateDescriptor, type Collector, type KeyedProcessContext, type MapState, type ValueState } from '@weir/api';
import type { Row } from '../row.ts';
import type { Accumulator } from './aggregates.ts';
import { keyString } from './keys.ts';

/**
 * GROUP BY without windows (Flink's GroupAggFunction) over insert-only input: per key, the
 * accumulators in keyed state; the first row of a key emits +I, every later one that changes
 * the result emits -U of the old result and +U of the new (nothing when it is unchanged).
 * A DISTINCT aggregate (COUNT(DISTINCT x)) sees each non-null value once per key: the values
 * it has seen are keys of its own keyed map state (Flink's distinct MapView), so a checkpoint
 * writes only the values that changed on a LevelDB backend.
 */
export class GroupAggregateFunction extends KeyedProcessFunction<string, Row, Row> {
  #state!: ValueState<unknown[]>;
  /** Per aggregate, its seen values when it is DISTINCT. */
  #seen: Array<MapState<string, boolean> | undefined> = [];

  constructor(
    private readonly keyIndexes: readonly number[],
    private readonly args: ReadonlyArray<number | undefined>,
    private readonly accumulators: readonly Accumulator[],
    /** table.exec.state.ttl: a key's accumulators not written for this long are dropped; an unchanged result is then emitted again, as Flink does. */
    private readonly ttl?: StateTtlConfig,
    private readonly distinct: readonly boolean[] = [],
  ) {
    super();
  }

  override open(): void {
    const descriptor = new ValueStateDescriptor<unknown[]>('accumulators', Types.GENERIC<unknown[]>());
    if (this.ttl !== undefined) descriptor.enableTimeToLive(this.ttl);
    this.#state = this.getRuntimeContext().getState(descriptor);
    this.#seen = this.accumulators.map((_, i) => {
      if (this.distinct[i] !== true) return undefined;
      const seen = new MapStateDescriptor<string, boolean>(`distinct-${i}`, Types.STRING, Types.BOOLEAN);
      if (this.ttl !== undefined) seen.enableTimeToLive(this.ttl);
      return this.getRuntimeContext().getMapState(seen);
    });
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const previous = this.#state.value();
    const accs = previous ?? this.accumulators.map((a) => a.create());
    const next = accs.map((acc, i) => {
      const arg = this.args[i];
      const value = arg === undefined ? 1 : (row.fields[arg] ?? null);
      const seen = this.#seen[i];
      if (seen !== undefined && value !== null) {
        const key = keyString([value]);
        if (seen.contains(key)) return acc;
        seen.put(key, true);
      }
      return this.accumulators[i]!.add(acc, value);
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
