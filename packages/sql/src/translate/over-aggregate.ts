import { KeyedProcessFunction, MapStateDescriptor, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type MapState, type OnTimerContext, type ValueState } from '@weir/api';
import type { Row } from '../row.ts';
import type { Accumulator } from './aggregates.ts';

/**
 * OVER aggregation on event time (Flink's RowTimeRowsBoundedPrecedingFunction and its RANGE
 * and unbounded siblings): rows wait in keyed map state (time -> rows) until the watermark
 * passes their time (a timer per time), then go out in time order, each with the aggregates
 * over its frame: ROWS — itself and the `preceding` rows before it (in time, then arrival,
 * order); RANGE — every row whose time is within `preceding` ms before its own, peers of the
 * same time included. Rows of past times stay in `history` as long as a frame can reach them;
 * an unbounded frame keeps only the accumulators. A row at or behind the watermark is late
 * and dropped, as Flink's. Insert-only.
 */
export class OverAggregateFunction extends KeyedProcessFunction<string, Row, Row> {
  #pending!: MapState<number, Array<readonly unknown[]>>;
  #history!: ValueState<Array<[number, readonly unknown[]]>>;
  #totals!: ValueState<unknown[]>;

  constructor(
    private readonly timeIndex: number,
    private readonly rows: boolean,
    private readonly preceding: number | undefined,
    private readonly args: ReadonlyArray<number | undefined>,
    private readonly accumulators: readonly Accumulator[],
  ) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.#pending = ctx.getMapState(new MapStateDescriptor<number, Array<readonly unknown[]>>('pending', Types.NUMBER, Types.GENERIC<Array<readonly unknown[]>>()));
    this.#history = ctx.getState(new ValueStateDescriptor<Array<[number, readonly unknown[]]>>('history', Types.GENERIC<Array<[number, readonly unknown[]]>>()));
    this.#totals = ctx.getState(new ValueStateDescriptor<unknown[]>('accumulators', Types.GENERIC<unknown[]>()));
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const time = row.fields[this.timeIndex] as number | null;
    if (time === null || time <= ctx.timerService().currentWatermark()) return;
    this.#pending.put(time, [...(this.#pending.get(time) ?? []), row.fields]);
    ctx.timerService().registerEventTimeTimer(time);
  }

  #aggregate(rows: Iterable<readonly unknown[]>, start?: unknown[]): unknown[] {
    let accs = start ?? this.accumulators.map((a) => a.create());
    for (const fields of rows) accs = accs.map((acc, i) => this.accumulators[i]!.add(acc, this.args[i] === undefined ? 1 : (fields[this.args[i]!] ?? null)));
    return accs;
  }

  #emit(fields: readonly unknown[], accs: readonly unknown[], out: Collector<Row>): void {
    out.collect({ kind: '+I', fields: [...fields, ...accs.map((acc, i) => this.accumulators[i]!.result(acc))] });
  }

  override onTimer(time: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const rows = this.#pending.get(time) ?? [];
    this.#pending.remove(time);
    if (this.preceding === undefined) {
      // Unbounded: one running set of accumulators; RANGE gives peers of one time the same result.
      let accs = this.#totals.value() ?? undefined;
      if (this.rows) {
        for (const fields of rows) this.#emit(fields, (accs = this.#aggregate([fields], accs)), out);
      } else {
        accs = this.#aggregate(rows, accs);
        for (const fields of rows) this.#emit(fields, accs, out);
      }
      this.#totals.update(accs!);
      return;
    }
    let history = this.#history.value() ?? [];
    if (this.rows) {
      for (const fields of rows) {
        history = [...history, [time, fields] as [number, readonly unknown[]]].slice(-(this.preceding + 1));
        this.#emit(fields, this.#aggregate(history.map(([, f]) => f)), out);
      }
    } else {
      history = [...history.filter(([t]) => t >= time - this.preceding!), ...rows.map((f) => [time, f] as [number, readonly unknown[]])];
      const accs = this.#aggregate(history.map(([, f]) => f));
      for (const fields of rows) this.#emit(fields, accs, out);
    }
    this.#history.update(history);
  }
}
