import { KeyedCoProcessFunction, MapStateDescriptor, Types, type Collector, type KeyedProcessContext, type MapState, type OnTimerContext } from '@weir/api';
import type { IntervalBounds } from '../logical/nodes.ts';
import type { Row } from '../row.ts';

/**
 * An event-time interval join (Flink's RowTimeIntervalJoin): a left row at `lt` meets the
 * right rows at `rt` with `rt + lower <= lt <= rt + upper` and the residual predicate. Each
 * side's rows wait in keyed map state (time -> rows) for as long as a row of the other side
 * that is not late could still meet them: a left row until the watermark passes `lt - lower`,
 * a right row until it passes `rt + upper`; an event-time timer then drops them. Insert-only.
 */
export class IntervalJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  #left!: MapState<number, Array<readonly unknown[]>>;
  #right!: MapState<number, Array<readonly unknown[]>>;

  constructor(
    private readonly bounds: IntervalBounds,
    private readonly keys: readonly [readonly number[], readonly number[]],
    private readonly residual: ((joined: readonly unknown[]) => unknown) | undefined,
  ) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.#left = ctx.getMapState(new MapStateDescriptor<number, Array<readonly unknown[]>>('left-rows', Types.NUMBER, Types.GENERIC<Array<readonly unknown[]>>()));
    this.#right = ctx.getMapState(new MapStateDescriptor<number, Array<readonly unknown[]>>('right-rows', Types.NUMBER, Types.GENERIC<Array<readonly unknown[]>>()));
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const lt = row.fields[this.bounds.leftTime] as number | null;
    // An inner join: a row with a null time or key meets nothing.
    if (lt === null || this.keys[0].some((k) => row.fields[k] === null)) return;
    // Right rows with rt in [lt - upper, lt - lower].
    this.#join(row.fields, this.#right, lt - this.bounds.upper, lt - this.bounds.lower, true, out);
    this.#keep(this.#left, lt, row.fields, lt - this.bounds.lower, ctx);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const rt = row.fields[this.bounds.rightTime] as number | null;
    if (rt === null || this.keys[1].some((k) => row.fields[k] === null)) return;
    this.#join(row.fields, this.#left, rt + this.bounds.lower, rt + this.bounds.upper, false, out);
    this.#keep(this.#right, rt, row.fields, rt + this.bounds.upper, ctx);
  }

  #join(fields: readonly unknown[], other: MapState<number, Array<readonly unknown[]>>, from: number, to: number, isLeft: boolean, out: Collector<Row>): void {
    for (const [time, rows] of other.entries()) {
      if (time < from || time > to) continue;
      for (const o of rows) {
        const joined = isLeft ? [...fields, ...o] : [...o, ...fields];
        if (this.residual === undefined || this.residual(joined) === true) out.collect({ kind: '+I', fields: joined });
      }
    }
  }

  /** Stores the row while a future row of the other side may still meet it; a late one (expired already) is not kept. */
  #keep(state: MapState<number, Array<readonly unknown[]>>, time: number, fields: readonly unknown[], expiresAt: number, ctx: KeyedProcessContext<string>): void {
    if (expiresAt <= ctx.timerService().currentWatermark()) return;
    state.put(time, [...(state.get(time) ?? []), fields]);
    ctx.timerService().registerEventTimeTimer(expiresAt);
  }

  override onTimer(timestamp: number, _ctx: OnTimerContext<string>): void {
    for (const time of [...this.#left.keys()]) if (time - this.bounds.lower <= timestamp) this.#left.remove(time);
    for (const time of [...this.#right.keys()]) if (time + this.bounds.upper <= timestamp) this.#right.remove(time);
  }
}
