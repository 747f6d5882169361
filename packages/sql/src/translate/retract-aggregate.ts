import { KeyedProcessFunction, MapStateDescriptor, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type MapState, type StateTtlConfig, type ValueState } from '@weir/api';
import type { AggCall } from '../logical/nodes.ts';
import type { Row } from '../row.ts';
import type { SqlType } from '../validate/types.ts';
import { keyString } from './keys.ts';
import { rescale } from './values.ts';

const minus = (a: unknown, b: unknown): unknown => (typeof a === 'bigint' ? a - (b as bigint) : (a as number) - (b as number));
const plus = (a: unknown, b: unknown): unknown => (typeof a === 'bigint' ? a + (b as bigint) : (a as number) + (b as number));

/**
 * GROUP BY over an updating input (Flink's GroupAggFunction with retraction): +I/+U rows
 * accumulate, -U/-D rows retract. Per key in keyed state: the number of rows the group has
 * (when it falls to 0 the group's row is deleted, -D, and its state cleared), and per
 * aggregate COUNT's count, SUM's and AVG's [sum, count of non-null values]; MIN and MAX keep
 * every value with its multiplicity in keyed map state (Flink's MinWithRetractAggFunction's
 * MapView), so retracting the current minimum finds the next one.
 */
export class RetractGroupAggregateFunction extends KeyedProcessFunction<string, Row, Row> {
  #state!: ValueState<{ rows: number; accs: unknown[] }>;
  #values: MapState<string, [unknown, number]>[] = [];

  constructor(
    private readonly keyIndexes: readonly number[],
    private readonly calls: readonly AggCall[],
    private readonly argTypes: ReadonlyArray<SqlType | undefined>,
    /** table.exec.state.ttl: state not written for this long is dropped; an unchanged result is then emitted again, as Flink does. */
    private readonly ttl?: StateTtlConfig,
  ) {
    super();
  }

  override open(): void {
    const accs = new ValueStateDescriptor<{ rows: number; accs: unknown[] }>('retract-accumulators', Types.GENERIC<{ rows: number; accs: unknown[] }>());
    if (this.ttl !== undefined) accs.enableTimeToLive(this.ttl);
    this.#state = this.getRuntimeContext().getState(accs);
    this.#values = this.calls.map((call, i) => {
      const descriptor = new MapStateDescriptor<string, [unknown, number]>(`${call.fn.toLowerCase()}-values-${i}`, Types.STRING, Types.GENERIC<[unknown, number]>());
      if (this.ttl !== undefined) descriptor.enableTimeToLive(this.ttl);
      return this.getRuntimeContext().getMapState(descriptor);
    });
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const adds = row.kind === '+I' || row.kind === '+U';
    const previous = this.#state.value() ?? undefined;
    // A retraction for a group without state (expired by TTL): nothing to take it from.
    if (previous === undefined && !adds) return;
    const keys = this.keyIndexes.map((k) => row.fields[k] ?? null);
    const before = previous === undefined ? undefined : [...keys, ...this.#results(previous.accs)];
    const accs = previous?.accs ?? this.calls.map((c) => (c.fn === 'COUNT' ? 0 : c.fn === 'SUM' || c.fn === 'AVG' ? [null, 0] : null));
    const next = this.calls.map((call, i) => {
      const value = call.arg === undefined ? 1 : (row.fields[call.arg] ?? null);
      if (call.fn === 'COUNT') return call.arg !== undefined && value === null ? accs[i] : (accs[i] as number) + (adds ? 1 : -1);
      if (value === null) return accs[i];
      if (call.fn === 'SUM' || call.fn === 'AVG') {
        const [sum, count] = accs[i] as [unknown, number];
        if (adds) return [sum === null ? value : plus(sum, value), count + 1];
        return count <= 1 ? [null, 0] : [minus(sum, value), count - 1];
      }
      this.#updateValues(i, value, adds);
      return null; // MIN and MAX are computed from their map state.
    });
    const rows = (previous?.rows ?? 0) + (adds ? 1 : -1);
    if (rows <= 0) {
      if (before !== undefined) out.collect({ kind: '-D', fields: before });
      this.#state.clear();
      for (const values of this.#values) values.clear();
      return;
    }
    this.#state.update({ rows, accs: next });
    const after = [...keys, ...this.#results(next)];
    if (before === undefined) {
      out.collect({ kind: '+I', fields: after });
      return;
    }
    if (this.ttl === undefined && before.every((v, i) => v === after[i])) return;
    out.collect({ kind: '-U', fields: before });
    out.collect({ kind: '+U', fields: after });
  }

  #updateValues(i: number, value: unknown, adds: boolean): void {
    const values = this.#values[i]!;
    const key = keyString([value]);
    const count = (values.get(key)?.[1] ?? 0) + (adds ? 1 : -1);
    if (count <= 0) values.remove(key);
    else values.put(key, [value, count]);
  }

  #results(accs: readonly unknown[]): unknown[] {
    return this.calls.map((call, i) => {
      const acc = accs[i];
      switch (call.fn) {
        case 'COUNT':
          return acc;
        case 'SUM': {
          const [sum, count] = acc as [unknown, number];
          return count === 0 ? null : sum;
        }
        case 'AVG':
          return average(acc as [unknown, number], call, this.argTypes[i]);
        case 'MIN':
        case 'MAX': {
          let best: unknown = null;
          for (const [value] of this.#values[i]!.values()) {
            if (best === null || (call.fn === 'MIN' ? value! < best! : value! > best!)) best = value;
          }
          return best;
        }
      }
    });
  }
}

/** AVG's result as the insert-only accumulator gives it: INT for INT (truncated), DECIMAL(38, max(6, s)) exact. */
function average([sum, count]: [unknown, number], call: AggCall, argType: SqlType | undefined): unknown {
  if (count === 0 || sum === null) return null;
  const resultScale = call.type.scale ?? 0;
  if (typeof sum === 'bigint') return rescale((sum * 10n ** BigInt(resultScale - (argType?.scale ?? 0) + 1)) / BigInt(count), resultScale + 1, resultScale);
  if (call.type.root === 'INT' || call.type.root === 'BIGINT') return Math.trunc((sum as number) / count);
  return (sum as number) / count;
}
